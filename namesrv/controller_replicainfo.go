package namesrv

import (
	"context"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.ControllerGetReplicaInfo, acl.Read, (*controllerPort).replicaInfo)
}

// replicaInfo is CONTROLLER_GET_REPLICA_INFO: the group's master and
// SyncStateSet.
func (c *controllerPort) replicaInfo(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	name := f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	g, err := c.ctrl.ReplicaInfo(ctx, controller.GetReplicaInfo{BrokerName: name})
	if err != nil {
		return nil, err
	}
	ext := map[string]string{}
	masterFields(ext, &g)
	return answer(req, ext, body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}
