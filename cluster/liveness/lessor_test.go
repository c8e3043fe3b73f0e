package liveness

import (
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
)

func testLessor(regs ...state.BrokerRegistration) (*Lessor, *fakeClock) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	cfg := Config{Self: "n1", BrokerExpiry: 10 * time.Second, ConnCloseGrace: time.Second, HeartbeatBatchInterval: time.Second,
		ControllerHeartbeatTimeout: 10 * time.Second, Clock: clk.now,
		Registrations: func() []state.BrokerRegistration { return regs }}
	return New(cfg), clk
}

func TestLessor_FollowerBatchesWhatItHears(t *testing.T) {
	a, b := reg("a", 1, 0), reg("b", 2, 0)
	l, _ := testLessor(a, b)
	l.Heard(a.Key, ConnNone)
	l.Heard(b.Key, ConnOpened)
	if l.Heard(b.Key, ConnClosed) {
		t.Fatal("a follower asked for an expiry scan")
	}
	if _, ok := l.due(time.Unix(2000, 0)); ok {
		t.Fatal("a follower found brokers due")
	}
	if ok := l.Receive(&Batch{From: "n2"}); ok {
		t.Fatal("a follower accepted another member's batch")
	}
	got := l.drain()
	if keys := got.Touched; len(keys) != 1 || keys[0] != a.Key || len(got.Held) != 0 || len(got.Closed) != 1 || got.Closed[0] != b.Key {
		t.Fatalf("batch = %+v, want a touched and b closed", got)
	}
	if again := l.drain(); len(again.Touched)+len(again.Closed) != 0 {
		t.Fatalf("a drained batch came back: %+v", again)
	}
	l.restore(got)
	if back := l.drain(); len(back.Touched) != 1 || len(back.Closed) != 1 {
		t.Fatalf("restored batch = %+v", back)
	}
}

func TestLessor_PromoteStartsEveryLeaseAfreshAndDueExpiresOnSchedule(t *testing.T) {
	a, b := reg("a", 1, 0), reg("b", 2, 0)
	l, clk := testLessor(a, b)
	l.Promote(42)
	if l.Epoch() != 42 {
		t.Fatalf("epoch = %d", l.Epoch())
	}
	clk.advance(6 * time.Second)
	l.Heard(a.Key, ConnNone)
	clk.advance(4*time.Second + time.Millisecond)
	due, ok := l.due(clk.now())
	if !ok || due.epoch != 42 || due.registered != 2 || len(due.timedOut) != 1 || due.timedOut[0].Key != b.Key || due.timedOut[0].RegEpoch != 2 {
		t.Fatalf("due = %+v, %v; want b timed out under epoch 42", due, ok)
	}
	l.Demote()
	if _, ok := l.due(clk.now()); ok || l.Epoch() != 0 {
		t.Fatal("a demoted lessor still decides expiries")
	}
}

func TestLessor_LastConnectionClosedOnLeaderExpiresAfterGrace(t *testing.T) {
	a := reg("a", 1, 0)
	l, clk := testLessor(a)
	l.Heard(a.Key, ConnOpened)
	l.Heard(a.Key, ConnOpened)
	l.Promote(7)
	if l.Heard(a.Key, ConnClosed) {
		t.Fatal("closing one of two connections asked for a scan")
	}
	if !l.Heard(a.Key, ConnClosed) {
		t.Fatal("closing the last connection did not ask for a scan")
	}
	clk.advance(500 * time.Millisecond)
	if due, _ := l.due(clk.now()); len(due.closed) != 0 {
		t.Fatalf("expired within the grace: %+v", due)
	}
	clk.advance(600 * time.Millisecond)
	if due, _ := l.due(clk.now()); len(due.closed) != 1 {
		t.Fatalf("not expired after the grace: %+v", due)
	}
}

func TestLessor_AFollowersHeldConnectionKeepsTheBrokerAfterALocalClose(t *testing.T) {
	a := reg("a", 1, 0)
	l, clk := testLessor(a)
	l.Promote(1)
	l.Heard(a.Key, ConnOpened)
	if ok := l.Receive(&Batch{From: "n2", Held: []state.BrokerKey{a.Key}}); !ok {
		t.Fatal("the leader refused a batch")
	}
	l.Heard(a.Key, ConnClosed)
	clk.advance(2 * time.Second)
	if due, _ := l.due(clk.now()); len(due.closed) != 0 {
		t.Fatalf("expired a broker another member holds: %+v", due)
	}
}

func TestLessor_LeasesOnTheLeaderOnlyWithEachBrokersTTL(t *testing.T) {
	a, b := reg("a", 1, 0), reg("b", 2, 3000)
	l, clk := testLessor(a, b)
	if _, ok := l.Leases(); ok {
		t.Fatal("a follower has leases")
	}
	l.Promote(1)
	clk.advance(2 * time.Second)
	l.Heard(a.Key, ConnNone)
	clk.advance(time.Second)
	got, ok := l.Leases()
	want := []Lease{{Key: a.Key, SinceHeard: time.Second, TTL: 10 * time.Second}, {Key: b.Key, SinceHeard: 3 * time.Second, TTL: 3 * time.Second}}
	if !ok || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("leases = %+v, %v; want %+v", got, ok, want)
	}
}
