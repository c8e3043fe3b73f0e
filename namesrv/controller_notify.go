package namesrv

import (
	"context"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// notifyTimeout bounds one NOTIFY_BROKER_ROLE_CHANGED (the reference: 3 s).
const notifyTimeout = 3 * time.Second

// roleNotifier pushes NOTIFY_BROKER_ROLE_CHANGED (1008) to the active
// brokers of a group after the leader committed an election, over its own
// connections to the brokers' listen addresses, as the reference controller
// does.
type roleNotifier struct {
	client *remoting.Client
	logger hclog.Logger
}

func newRoleNotifier(logger hclog.Logger) *roleNotifier {
	return &roleNotifier{logger: logger,
		client: remoting.NewClient(remoting.ClientConfig{DialTimeout: notifyTimeout, RequestTimeout: notifyTimeout, WriteTimeout: notifyTimeout})}
}

// notify tells every active broker of the group its new role.
func (r *roleNotifier) notify(rc controller.RoleChange) {
	g := rc.Group
	if !g.HasMaster {
		return
	}
	ext := map[string]string{}
	masterFields(ext, &g)
	ext["syncStateSetEpoch"] = itoa32(g.SyncStateSetEpoch)
	payload := body.EncodeSyncStateSet(g.SyncStateSet, g.SyncStateSetEpoch)
	for _, b := range g.Brokers {
		if !rc.Alive(b.ID) {
			continue
		}
		req := &remoting.Command{Code: remoting.NotifyBrokerRoleChanged, Language: "GO", Version: remoting.ServerVersion,
			ExtFields: ext, Body: payload}
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		err := r.client.InvokeOneway(ctx, b.Addr, req)
		cancel()
		if err != nil {
			r.logger.Warn("role change not delivered", "broker", g.BrokerName, "id", b.ID, "addr", b.Addr, "error", err)
			continue
		}
		r.logger.Info("role change sent", "broker", g.BrokerName, "id", b.ID, "addr", b.Addr,
			"master", g.MasterID, "masterEpoch", g.MasterEpoch)
	}
}

// close releases the notifier's connections.
func (r *roleNotifier) close() { r.client.Close() }
