package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// A broker connection that closes on the leader around a leadership
// transfer counts only as a close on the member that held it. A broker that
// holds a connection to another member is never expired for it. One connected to the old leader only is expired, and within a
// bound: a close the old leader saw while still in office left with its
// lease table, so the broker expires its expiry time after the new leader
// took office (docs/contributors/design.md, "Leader-only liveness"); a close after the
// old leader left office reaches the new leader in the old one's batch and
// expires the broker once the close grace has passed, before its expiry
// time.
func TestLiveness_ClosesOnTheOldLeaderAroundATransfer(t *testing.T) {
	const expiry = 5 * time.Second
	for _, inOffice := range []bool{true, false} {
		name := "closed after the old leader left office"
		if inOffice {
			name = "closed while the old leader was in office"
		}
		t.Run(name, func(t *testing.T) {
			// Raft timers slower than the harness's, so that a busy
			// machine changes leaders only when the test transfers:
			// every change of leader restarts the leases.
			tc := newTestCluster(t, 3, func(c *Config) {
				c.BrokerExpiry = expiry
				c.RaftConfig.HeartbeatTimeout, c.RaftConfig.ElectionTimeout = time.Second, time.Second
				c.RaftConfig.LeaderLeaseTimeout = 500 * time.Millisecond
			})
			old := tc.waitLeaderReady()
			kept := registration("c1", "kept", "10.0.0.1:10911", 0, 1)
			// kept's own timeout outlasts the test: only its connections
			// to the other members keep it.
			kept.HeartbeatTimeoutMillis = time.Hour.Milliseconds()
			gone := registration("c1", "gone", "10.0.0.2:10911", 0, 1)
			register(t, old, kept)
			register(t, old, gone)
			for _, m := range tc.running() {
				m.node.BrokerConnected(kept.Key())
			}
			old.node.BrokerConnected(gone.Key())
			tc.waitApplied(old.node.Raft().LastIndex())
			closeOnOld := func() {
				old.node.BrokerDisconnected(kept.Key())
				old.node.BrokerDisconnected(gone.Key())
			}
			if inOffice {
				closeOnOld()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := old.node.TransferLeadership(ctx, tc.followers()[0].id); err != nil {
				t.Fatalf("transfer: %v", err)
			}
			var leader *testMember
			poll.For(t, 10*time.Second, "another leader in office and the old one out", func() bool {
				leader = tc.waitLeaderReady()
				return leader != old && old.node.lessor.Epoch() == 0
			})
			closed := time.Now()
			if !inOffice {
				closeOnOld()
			}
			poll.For(t, expiry+10*time.Second, "the new leader to expire the broker connected to the old leader only", func() bool {
				return !registered(leader, gone)
			})
			if since := time.Since(closed); !inOffice && since >= expiry {
				t.Errorf("the broker closed on a follower expired %v after the close, not within its expiry time %v", since, expiry)
			}
			if !registered(leader, kept) {
				t.Errorf("the new leader %s expired a broker that holds connections to other members", leader.id)
			}
		})
	}
}
