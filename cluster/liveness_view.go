package cluster

import (
	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
)

// The controller's view of replicas, which the lessor keeps.
type (
	ReplicaKey          = liveness.ReplicaKey
	ControllerHeartbeat = liveness.ControllerHeartbeat
	ReplicaLive         = liveness.ReplicaLive
)

// BrokerConnected records that the broker registered on a connection to
// this member. Calls pair with BrokerDisconnected; a broker may hold several
// connections.
func (n *Node) BrokerConnected(key state.BrokerKey) { n.lessor.Heard(key, liveness.ConnOpened) }

// BrokerDisconnected records that a connection the broker registered on
// closed. When it was the broker's last connection here, the leader learns
// of it and expires the broker after the grace unless a sign of life comes.
func (n *Node) BrokerDisconnected(key state.BrokerKey) { n.lessor.Heard(key, liveness.ConnClosed) }

// BrokerLiveness returns the liveness of every registered broker the tracker
// knows. It reports false on a member that is not the leader in office: only
// the leader tracks heartbeats.
func (n *Node) BrokerLiveness() ([]adminapi.BrokerLiveness, bool) {
	if !n.LeaderReady() {
		return nil, false
	}
	leases, _ := n.lessor.Leases()
	out := make([]adminapi.BrokerLiveness, 0, len(leases))
	for _, l := range leases {
		out = append(out, adminapi.BrokerLiveness{
			Cluster:             l.Key.Cluster,
			Addr:                l.Key.Addr,
			LastHeartbeatMillis: l.SinceHeard.Milliseconds(),
			ExpiresInMillis:     (l.TTL - l.SinceHeard).Milliseconds(),
		})
	}
	return out, true
}
