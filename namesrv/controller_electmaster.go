package namesrv

import (
	"context"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.ControllerElectMaster, acl.Write, (*controllerPort).electMaster)
}

// electMaster is CONTROLLER_ELECT_MASTER: an election in the group, or
// CONTROLLER_MASTER_STILL_EXIST when the master stays.
func (c *controllerPort) electMaster(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	f.str("clusterName")
	name := f.required("brokerName")
	id, hasID := f.optInt64("brokerId")
	designate := f.boolean("designateElect")
	if err := f.check(); err != nil {
		return nil, err
	}
	e, err := c.ctrl.ElectMaster(ctx, controller.ElectRequest{BrokerName: name, HasBrokerID: hasID && id >= 0, BrokerID: id, Designate: designate})
	if err != nil {
		return nil, err
	}
	g := &e.Group
	ext := map[string]string{}
	masterFields(ext, g)
	ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
	if e.MasterStillAlive {
		resp := remoting.NewResponse(req, remoting.ControllerMasterStillExist, fsm.MasterStillAliveRemark(g))
		resp.ExtFields, resp.Body = ext, body.EncodeElectMasterResponseBody(nil, g.SyncStateSet)
		return resp, nil
	}
	group := &fsm.BrokerMemberGroup{Cluster: g.ClusterName, BrokerName: g.BrokerName, BrokerAddrs: map[int64]string{}}
	for _, b := range g.Brokers {
		group.BrokerAddrs[b.ID] = b.Addr
	}
	return answer(req, ext, body.EncodeElectMasterResponseBody(group, g.SyncStateSet)), nil
}
