package cluster

import (
	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
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
func (n *Node) BrokerConnected(key fsm.BrokerKey) { n.lessor.Heard(key, liveness.ConnOpened) }

// BrokerDisconnected records that a connection the broker registered on
// closed. When it was the broker's last connection here, the leader learns
// of it and expires the broker after the grace unless a sign of life comes.
func (n *Node) BrokerDisconnected(key fsm.BrokerKey) { n.lessor.Heard(key, liveness.ConnClosed) }

// BrokerLiveness is what the leader's liveness tracker knows of one
// registered broker, for the status page.
type BrokerLiveness struct {
	Cluster string `json:"cluster"`
	Addr    string `json:"addr"`
	// LastHeartbeatMillis is how long ago the broker was last heard from
	// by any member.
	LastHeartbeatMillis int64 `json:"lastHeartbeatMillis"`
	// ExpiresInMillis is how long until the broker is expired if it stays
	// silent; it may be negative between scans.
	ExpiresInMillis int64 `json:"expiresInMillis"`
}

// BrokerLiveness returns the liveness of every registered broker the tracker
// knows. It reports false on a member that is not the leader in office: only
// the leader tracks heartbeats.
func (n *Node) BrokerLiveness() ([]BrokerLiveness, bool) {
	if !n.LeaderReady() {
		return nil, false
	}
	leases, _ := n.lessor.Leases()
	out := make([]BrokerLiveness, 0, len(leases))
	for _, l := range leases {
		out = append(out, BrokerLiveness{
			Cluster:             l.Key.Cluster,
			Addr:                l.Key.Addr,
			LastHeartbeatMillis: l.SinceHeard.Milliseconds(),
			ExpiresInMillis:     (l.TTL - l.SinceHeard).Milliseconds(),
		})
	}
	return out, true
}
