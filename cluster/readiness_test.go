package cluster

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/poll"
)

// A leader that steps down (here: cut off from the others, it loses its
// quorum) keeps serving reads for as long as a follower that lost its
// leader would: its state was the freshest until a moment ago. After
// MaxStale without a leader it is unready like any follower.
func TestReadiness_FormerLeaderStaysReadyForMaxStale(t *testing.T) {
	const maxStale = 2 * time.Second
	tc := newTestCluster(t, 3, func(c *Config) { c.MaxStale = maxStale })
	old := tc.waitLeaderReady()
	poll.For(t, 5*time.Second, "the leader ready", func() bool { ready, _ := old.node.Ready(); return ready })
	var unready atomic.Value
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		poll.Every(2*time.Millisecond, stop, func() {
			if ready, why := old.node.Ready(); !ready {
				unready.CompareAndSwap(nil, why)
			}
		})
	}()
	tc.partition(old)
	steppedDown := time.Now()
	poll.For(t, 10*time.Second, "the cut-off leader to step down", func() bool { return old.node.Raft().State() != raft.Leader })
	if err := old.node.readiness.refresh(); err != nil {
		t.Fatal(err)
	}
	close(stop)
	<-done
	if why := unready.Load(); why != nil {
		t.Fatalf("the former leader was unready as it stepped down: %v", why)
	}
	poll.For(t, 10*time.Second, "the former leader unready after max stale", func() bool { ready, _ := old.node.Ready(); return !ready })
	if took := time.Since(steppedDown); took < maxStale {
		t.Fatalf("unready %v after it was cut off, before max stale (%v)", took, maxStale)
	}
}
