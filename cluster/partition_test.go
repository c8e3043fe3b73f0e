package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// A broker that keeps talking only to a partitioned follower is silent as
// far as the majority knows: neither heartbeat batches nor forwarded
// registrations reach the leader, so the leader expires the broker one
// expiry time after it last heard from it: never earlier than that after
// the registration, and not never.
func TestPartition_FollowerCannotKeepItsBrokersAlive(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	f := tc.followers()[0]
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	// The leader cannot have heard from the broker before this moment.
	registering := time.Now()
	register(t, f, cmd)
	f.node.BrokerConnected(cmd.Key())
	tc.waitApplied(leader.node.Raft().LastIndex())

	tc.partition(f)
	expiry := leader.node.cfg.BrokerExpiry

	// The broker keeps heartbeating and re-registering on the follower.
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			f.node.Heartbeat(cmd.Key())
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			_, _ = f.node.Register(ctx, cmd) // unchanged: a sign of life, no entry
			cancel()
		}
	}()
	defer func() { close(stop); <-done }()

	// A write through the follower cannot reach the leader either.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	changed := registration("c1", "broker-a", "10.0.0.1:10911", 0, 2)
	if _, err := f.node.Register(ctx, changed); !errors.Is(err, ErrNoLeader) {
		t.Fatalf("changed registration through a partitioned follower: err = %v, want ErrNoLeader", err)
	}
	cancel()

	poll.For(t, expiry+10*time.Second, "the leader to expire the silent broker", func() bool {
		return !registered(leader, cmd)
	})
	if since := time.Since(registering); since < expiry {
		t.Fatalf("expired %v after registering, before the expiry time %v", since, expiry)
	}
	// A leader starved past its lease on a loaded machine may have handed
	// office to the other majority member: count the majority's expiries.
	var expired uint64
	for _, m := range tc.running() {
		if m != f {
			expired += m.node.Stats().Expirations.Load()
		}
	}
	if expired != 1 {
		t.Fatalf("the majority's expirations = %d, want 1", expired)
	}
	// The follower, cut off, still has the broker: it applied nothing.
	if !registered(f, cmd) {
		t.Fatal("the partitioned follower applied the expiry")
	}
}
