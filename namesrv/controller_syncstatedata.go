package namesrv

import (
	"context"
	"slices"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.ControllerGetSyncStateData, acl.Read, (*controllerPort).syncStateData)
}

// syncStateData is CONTROLLER_GET_SYNC_STATE_DATA: the replicas of the named
// groups, alive or not, in or out of sync.
func (c *controllerPort) syncStateData(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	var names []string
	if len(req.Body) > 0 {
		var err error
		if names, err = body.DecodeStringList(req.Body); err != nil {
			return nil, badRequest(err.Error())
		}
	}
	states, err := c.ctrl.SyncStateData(ctx, controller.GetSyncStateData{BrokerNames: names})
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return success(req), nil
	}
	infos := map[string]body.ReplicasInfo{}
	var listed []string
	for _, st := range states {
		g := &st.Group
		info := body.ReplicasInfo{HasMaster: g.HasMaster, MasterBrokerID: g.MasterID, MasterAddr: g.MasterAddr(),
			MasterEpoch: g.MasterEpoch, SyncStateSetEpoch: g.SyncStateSetEpoch,
			InSync: []body.ReplicaIdentity{}, NotInSync: []body.ReplicaIdentity{}}
		for _, rb := range g.Brokers {
			r := body.ReplicaIdentity{BrokerName: g.BrokerName, BrokerID: rb.ID, Addr: rb.Addr, Alive: slices.Contains(st.Alive, rb.ID)}
			if g.InSyncStateSet(rb.ID) {
				info.InSync = append(info.InSync, r)
			} else {
				info.NotInSync = append(info.NotInSync, r)
			}
		}
		infos[g.BrokerName] = info
		listed = append(listed, g.BrokerName)
	}
	return answer(req, nil, body.EncodeBrokerReplicasInfo(listed, infos)), nil
}
