package liveness

import (
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func reg(addr string, epoch uint64, timeoutMillis int64) state.BrokerRegistration {
	return state.BrokerRegistration{
		Key:                    state.BrokerKey{Cluster: "c", Addr: addr},
		RegEpoch:               epoch,
		HeartbeatTimeoutMillis: timeoutMillis,
	}
}

func keys(list []state.ExpiredBroker) []string {
	var out []string
	for _, e := range list {
		out = append(out, e.Key.Addr)
	}
	return out
}

func TestTracker_NewLeaderCountsEveryBrokerAsJustHeard(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	regs := []state.BrokerRegistration{reg("a", 1, 0), reg("b", 2, 0)}
	tr := newTracker(clk.now, 10*time.Second, time.Second, 3*time.Second, regs)

	clk.advance(10 * time.Second)
	if out, closed, _ := tr.due(clk.now(), regs); len(out) != 0 || len(closed) != 0 {
		t.Fatalf("due at exactly TTL = %v %v, want none", keys(out), keys(closed))
	}
	clk.advance(time.Millisecond)
	out, _, _ := tr.due(clk.now(), regs)
	if got := keys(out); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("due after TTL = %v, want [a b]", got)
	}
	if out[1].RegEpoch != 2 {
		t.Fatalf("epoch = %d, want 2", out[1].RegEpoch)
	}
}

func TestTracker_TouchPostponesExpiry(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	regs := []state.BrokerRegistration{reg("a", 1, 0), reg("b", 1, 0)}
	tr := newTracker(clk.now, 10*time.Second, time.Second, 3*time.Second, regs)
	clk.advance(8 * time.Second)
	tr.touch(regs[0].Key)
	clk.advance(3 * time.Second)
	out, _, _ := tr.due(clk.now(), regs)
	if got := keys(out); len(got) != 1 || got[0] != "b" {
		t.Fatalf("due = %v, want [b]", got)
	}
}

func TestTracker_OwnHeartbeatTimeoutWins(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	regs := []state.BrokerRegistration{reg("short", 1, 2000), reg("default", 1, 0)}
	tr := newTracker(clk.now, 10*time.Second, time.Second, 3*time.Second, regs)
	clk.advance(3 * time.Second)
	out, _, _ := tr.due(clk.now(), regs)
	if got := keys(out); len(got) != 1 || got[0] != "short" {
		t.Fatalf("due = %v, want [short]", got)
	}
}

func TestTracker_NewRegistrationStartsClockAtFirstScan(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	tr := newTracker(clk.now, 10*time.Second, time.Second, 3*time.Second, nil)
	clk.advance(time.Hour)
	regs := []state.BrokerRegistration{reg("late", 5, 0)}
	if out, _, _ := tr.due(clk.now(), regs); len(out) != 0 {
		t.Fatalf("a registration the tracker never saw expired at once: %v", keys(out))
	}
	clk.advance(11 * time.Second)
	if out, _, _ := tr.due(clk.now(), regs); len(out) != 1 {
		t.Fatalf("due = %v, want [late]", keys(out))
	}
}

func TestTracker_ClosedConnection(t *testing.T) {
	a := reg("a", 7, 0)
	cases := []struct {
		name string
		// after the close at t=1s, before the check at t=1s+grace
		between func(tr *tracker, clk *fakeClock)
		want    bool
	}{
		{"expires after grace", func(*tracker, *fakeClock) {}, true},
		{"touch after close saves it", func(tr *tracker, clk *fakeClock) {
			clk.advance(100 * time.Millisecond)
			tr.touch(a.Key)
		}, false},
		{"another member holding a connection saves it", func(tr *tracker, clk *fakeClock) {
			tr.setHeld("m2", []state.BrokerKey{a.Key})
		}, false},
		{"a stale holder report does not save it", func(tr *tracker, clk *fakeClock) {
			tr.setHeld("m2", []state.BrokerKey{a.Key})
			clk.advance(4 * time.Second)
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeClock{t: time.Unix(1000, 0)}
			tr := newTracker(clk.now, 120*time.Second, 2*time.Second, 3*time.Second, []state.BrokerRegistration{a})
			tr.setHeld("m1", []state.BrokerKey{a.Key})
			clk.advance(time.Second)
			tr.connClosed("m1", a.Key)
			tc.between(tr, clk)
			clk.advance(2 * time.Second)
			_, closed, _ := tr.due(clk.now(), []state.BrokerRegistration{a})
			if got := len(closed) == 1; got != tc.want {
				t.Fatalf("expired = %v, want %v", got, tc.want)
			}
			if tc.want && closed[0].RegEpoch != 7 {
				t.Fatalf("epoch = %d, want 7", closed[0].RegEpoch)
			}
		})
	}
}

func TestTracker_ForgetsUnregisteredBrokers(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	a := reg("a", 1, 0)
	tr := newTracker(clk.now, 10*time.Second, time.Second, 3*time.Second, []state.BrokerRegistration{a})
	tr.connClosed("m1", a.Key)
	tr.due(clk.now(), nil)
	if _, ok := tr.lastSeenAgo(a.Key); ok {
		t.Fatal("unregistered broker still tracked")
	}
	if _, ok := tr.closedAt[a.Key]; ok {
		t.Fatal("close of an unregistered broker still pending")
	}
}
