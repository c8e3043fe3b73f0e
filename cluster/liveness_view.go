package cluster

import (
	"time"

	"github.com/raftns/raftns/fsm"
)

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
	regs := n.fsm.Registrations()
	out := make([]BrokerLiveness, 0, len(regs))
	for _, r := range regs {
		ago, ok := n.lastHeard(r.Key)
		if !ok {
			continue
		}
		ttl := n.cfg.BrokerExpiry
		if r.HeartbeatTimeoutMillis > 0 {
			ttl = time.Duration(r.HeartbeatTimeoutMillis) * time.Millisecond
		}
		out = append(out, BrokerLiveness{
			Cluster:             r.Key.Cluster,
			Addr:                r.Key.Addr,
			LastHeartbeatMillis: ago.Milliseconds(),
			ExpiresInMillis:     (ttl - ago).Milliseconds(),
		})
	}
	return out, true
}

// lastHeard reports how long ago the leader's lessor heard from key; false
// when this member holds no lease table or it does not know key.
func (n *Node) lastHeard(key fsm.BrokerKey) (time.Duration, bool) {
	return n.lessor.LastSeenAgo(key)
}
