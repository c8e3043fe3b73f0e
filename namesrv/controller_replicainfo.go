package namesrv

import (
	"context"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

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
