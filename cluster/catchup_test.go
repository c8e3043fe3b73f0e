package cluster

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// TestCluster_ReturningMemberCatchUpFollowsTrailingLogs runs members with the
// snapshot settings of Config (not a test Raft config): a member that was
// down while more entries were written than the leader keeps past its
// snapshots (TrailingLogs) receives the leader's snapshot, a member that
// missed fewer replays the entries; either way it ends with the leader's
// state and ready.
func TestCluster_ReturningMemberCatchUpFollowsTrailingLogs(t *testing.T) {
	cases := []struct {
		name         string
		trailingLogs uint64
		writes       int
		wantSnapshot bool
	}{
		{"missed more than the log keeps", 32, 200, true},
		{"missed less than the log keeps", 4096, 200, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := newTestCluster(t, 3, func(cfg *Config) {
				cfg.RaftConfig = nil // derive Raft's settings from Config, as members do
				cfg.SnapshotInterval = 50 * time.Millisecond
				cfg.SnapshotThreshold = 16
				cfg.TrailingLogs = c.trailingLogs
				// The brokers never heartbeat; expiring them while the
				// member catches up would move the state under the checks.
				cfg.BrokerExpiry = time.Hour
			})
			leader := tc.waitLeaderReady()
			f := tc.followers()[0]
			had := f.node.Raft().LastIndex()
			tc.stop(f)
			for i := 0; i < c.writes; i++ {
				register(t, leader, registration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.%d.%d:10911", i/200, i%200+1), 0, 1))
			}
			// The leader snapshots (SnapshotThreshold is far exceeded)
			// and keeps TrailingLogs entries behind its last snapshot.
			poll.For(t, 10*time.Second, "the leader to snapshot past most of the writes", func() bool {
				idx, err := strconv.ParseUint(leader.node.Raft().Stats()["last_snapshot_index"], 10, 64)
				return err == nil && idx > had+uint64(c.writes)/2
			})
			first, _ := leader.logs.FirstIndex()
			if needs := first > had+1; needs != c.wantSnapshot {
				t.Fatalf("leader's log starts at %d, the member has up to %d: a snapshot needed = %v, want %v",
					first, had, needs, c.wantSnapshot)
			}
			tc.start(f, nil)
			tc.waitSame()
			poll.For(t, 10*time.Second, "the returning member ready", func() bool { ready, _ := f.node.Ready(); return ready })
			_, restoredAt := f.node.FSM().Restores()
			if got := restoredAt > had; got != c.wantSnapshot {
				t.Fatalf("member restored a snapshot at %d (it had %d before its outage): from the leader = %v, want %v",
					restoredAt, had, got, c.wantSnapshot)
			}
			if got, want := f.node.FSM().Digest(), leader.node.FSM().Digest(); got != want {
				t.Fatalf("member digest %x, leader %x", got, want)
			}
		})
	}
}
