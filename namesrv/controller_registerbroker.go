package namesrv

import (
	"context"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.ControllerRegisterBroker, acl.Write, (*controllerPort).registerBroker)
}

// registerBroker is CONTROLLER_REGISTER_BROKER: a broker with an id
// registers its address; the answer names the master only while the leader
// counts it alive.
func (c *controllerPort) registerBroker(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	id := f.int64("brokerId")
	addr := f.required("brokerAddress")
	if err := f.check(); err != nil {
		return nil, err
	}
	reg, err := c.ctrl.RegisterBroker(ctx, controller.RegisterBroker{ClusterName: clusterName, BrokerName: name, BrokerID: id, Addr: addr})
	if err != nil {
		return nil, err
	}
	g := &reg.Group
	ext := map[string]string{"clusterName": clusterName, "brokerName": name}
	if reg.MasterAlive {
		masterFields(ext, g)
		ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
	}
	return answer(req, ext, body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}
