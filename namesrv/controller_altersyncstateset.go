package namesrv

import (
	"context"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.ControllerAlterSyncStateSet, acl.Write, (*controllerPort).alterSyncStateSet)
}

// alterSyncStateSet is CONTROLLER_ALTER_SYNC_STATE_SET from the group's
// master.
func (c *controllerPort) alterSyncStateSet(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	name := f.required("brokerName")
	master := f.int64("masterBrokerId")
	masterEpoch := f.int64("masterEpoch")
	if err := f.check(); err != nil {
		return nil, err
	}
	set, err := body.DecodeSyncStateSet(req.Body)
	if err != nil {
		return nil, badRequest(err.Error())
	}
	g, err := c.ctrl.AlterSyncStateSet(ctx, controller.AlterSyncStateSet{BrokerName: name, MasterID: master, MasterEpoch: int32(masterEpoch),
		SyncStateSetEpoch: set.Epoch, NewSyncStateSet: set.IDs})
	if err != nil {
		return nil, err
	}
	return answer(req, map[string]string{"newSyncStateSetEpoch": itoa32(g.SyncStateSetEpoch)},
		body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)), nil
}
