package cluster

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm"
)

// A leader proposing a registration it planned itself does not plan it
// again while the FSM has not moved, but a plan made before another write
// was applied no longer holds: the leader plans again and answers a
// registration that write made redundant without a log entry.
func TestRegisterAsLeader_PlanHoldsOnlyWhileTheStateHasNotMoved(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	leader := tc.waitLeaderReady()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f := leader.node.FSM()
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	entry, err := fsm.Encode(fsm.RegisterBrokerType, cmd)
	if err != nil {
		t.Fatal(err)
	}

	planned := plannedAt{gen: f.Generation(), ok: true}
	if !f.WouldChange(cmd) || !planned.still(f) {
		t.Fatal("a new broker's registration should change the state, and nothing was applied since the plan")
	}
	register(t, leader, cmd) // the same registration, from elsewhere, first
	if planned.still(f) {
		t.Fatal("the plan still holds after a registration was applied")
	}
	index, written := leader.node.Raft().LastIndex(), leader.node.Stats().RegistersWritten.Load()
	if _, _, err := leader.node.proposer.register(ctx, proposedRegistration{cmd: cmd, entry: entry, planned: planned}); err != nil {
		t.Fatal(err)
	}
	if got := leader.node.Raft().LastIndex(); got != index {
		t.Fatalf("the redundant registration was written: last index %d -> %d", index, got)
	}
	if got := leader.node.Stats().RegistersWritten.Load(); got != written {
		t.Fatalf("registrations written %d -> %d, want none", written, got)
	}

	// A changed registration planned at the current generation is
	// proposed.
	changed := registration("c1", "broker-a", "10.0.0.1:10911", 0, 2)
	if entry, err = fsm.Encode(fsm.RegisterBrokerType, changed); err != nil {
		t.Fatal(err)
	}
	planned = plannedAt{gen: f.Generation(), ok: true}
	if _, _, err := leader.node.proposer.register(ctx, proposedRegistration{cmd: changed, entry: entry, planned: planned}); err != nil {
		t.Fatal(err)
	}
	if got := leader.node.Stats().RegistersWritten.Load(); got != written+1 {
		t.Fatalf("registrations written %d -> %d, want one more", written, got)
	}
	if reg, ok := f.Registration(changed.Key()); !ok || reg.DataVersion.Counter != 2 {
		t.Fatalf("registration after the changed one: %+v, %v", reg, ok)
	}
}

// doneCounter counts the calls to Done of the context it wraps.
type doneCounter struct {
	context.Context
	calls atomic.Int32
}

func (c *doneCounter) Done() <-chan struct{} {
	c.calls.Add(1)
	return c.Context.Done()
}

// A write answered by a ready leader never asks its context for Done: the
// member gives each write a context whose deadline timer is armed only
// then (internal/deadline), and arming one per write is measurable.
func TestRegister_ReadyLeaderDoesNotWaitOnTheContext(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	leader := tc.waitLeaderReady()
	base, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for counter := range int64(3) {
		ctx := &doneCounter{Context: base}
		if _, err := leader.node.Register(ctx, registration("c1", "broker-a", "10.0.0.1:10911", 0, counter+1)); err != nil {
			t.Fatal(err)
		}
		if n := ctx.calls.Load(); n != 0 {
			t.Fatalf("registration %d asked its context for Done %d times", counter+1, n)
		}
	}
	if got := leader.node.Stats().RegistersWritten.Load(); got != 3 {
		t.Fatalf("registrations written %d, want 3", got)
	}
}
