package cluster

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/poll"
)

// A leadership transfer asked of a follower moves leadership once: the
// follower's try at the leader is cut short by the very change it asked
// for, and the retry must not hand leadership on again, back to the old
// leader or to the member asked.
func TestCluster_ATransferAskedOfAFollowerMovesLeadershipOnce(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) {
		// Raft timers slower than the harness's, so that leadership
		// changes only when the test transfers it.
		c.RaftConfig.HeartbeatTimeout, c.RaftConfig.ElectionTimeout = time.Second, time.Second
		c.RaftConfig.LeaderLeaseTimeout = 500 * time.Millisecond
	})
	for round := 0; round < 4; round++ {
		old := tc.waitLeaderReady()
		term := old.node.Raft().CurrentTerm()
		asked := tc.followers()[round%2]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := asked.node.TransferLeadership(ctx, "")
		cancel()
		if err != nil {
			t.Fatalf("round %d: transfer asked of %s: %v", round, asked.id, err)
		}
		var now *testMember
		poll.For(t, 5*time.Second, "another leader in office", func() bool {
			now = tc.waitLeaderReady()
			return now != old
		})
		// One election: a second transfer would have taken another term.
		if got := now.node.Raft().CurrentTerm(); got != term+1 {
			t.Fatalf("round %d: transfer asked of %s: %s leads in term %d, want one election after term %d",
				round, asked.id, now.id, got, term)
		}
	}
}

// A transfer that meets one in progress (its own retry, or another
// operator's) is retried by the caller until leadership has moved, where
// the new leader answers it done; any other refusal stays final.
func TestTransferRetryable_OnlyATransferInProgressIsRetried(t *testing.T) {
	inProgress := fmt.Errorf("transfer: %w", raft.ErrLeadershipTransferInProgress)
	if err := transferRetryable(inProgress); !retryable(err) || !errors.Is(err, ErrLeaderNotReady) {
		t.Fatalf("transfer in progress -> %v: want a retryable leader-not-ready", err)
	}
	for _, err := range []error{nil, ErrUnknownMember, errors.New("cannot find peer")} {
		if got := transferRetryable(err); got != err {
			t.Fatalf("%v -> %v, want it unchanged", err, got)
		}
	}
}
