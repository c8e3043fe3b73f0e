package liveness

import (
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
)

// pausingLessor is a leader's lessor of brokers a (heard from all along)
// and d (dead from the start), with scans every second and a pause gap of
// five seconds.
func pausingLessor(t *testing.T) (*Lessor, *fakeClock, state.BrokerRegistration, state.BrokerRegistration) {
	t.Helper()
	a, d := reg("a", 1, 0), reg("d", 2, 0)
	l, clk := testLessor(a, d)
	l.cfg.PauseGap = 5 * time.Second
	l.Promote(7)
	return l, clk, a, d
}

// scanFor advances the clock by d in one-second scans, touching live
// brokers before each, and returns what the scans found due.
func scanFor(l *Lessor, clk *fakeClock, d time.Duration, live ...state.BrokerRegistration) []string {
	var due []string
	for end := clk.now().Add(d); clk.now().Before(end); {
		clk.advance(time.Second)
		for _, r := range live {
			l.Heard(r.Key, ConnNone)
		}
		found, _ := l.due(clk.now())
		due = append(due, keys(found.timedOut)...)
	}
	return due
}

// A leader stalled or suspended for an hour (its monotonic clock jumps
// forward, nothing was heard meanwhile) expires no live broker: the leases
// restart as on taking office, and a dead broker still expires one TTL
// after the pause.
func TestLessor_ClockJumpingForwardAnHourExpiresNoLiveBroker(t *testing.T) {
	l, clk, a, d := pausingLessor(t)
	if due := scanFor(l, clk, 4*time.Second, a); len(due) != 0 {
		t.Fatalf("due before any jump: %v", due)
	}
	clk.advance(time.Hour)
	found, _ := l.due(clk.now())
	if found.paused < time.Hour || len(found.timedOut)+len(found.closed) != 0 {
		t.Fatalf("scan after an hour's jump = %+v, want a pause and nothing due", found)
	}
	if due := scanFor(l, clk, 10*time.Second, a); len(due) != 0 {
		t.Fatalf("due within the TTL after the pause: %v", due)
	}
	if due := scanFor(l, clk, time.Second, a); len(due) != 1 || due[0] != d.Key.Addr {
		t.Fatalf("due one TTL after the pause = %v, want only the dead broker %s", due, d.Key.Addr)
	}
}

// A clock that goes back an hour keeps no dead broker for that hour: the
// leases restart at the jump, so the dead broker expires one TTL later.
func TestLessor_ClockJumpingBackAnHourKeepsNoDeadBrokerForIt(t *testing.T) {
	l, clk, a, d := pausingLessor(t)
	scanFor(l, clk, 6*time.Second, a)
	clk.advance(-time.Hour)
	if found, _ := l.due(clk.now()); found.paused > -time.Hour+time.Second || len(found.timedOut) != 0 {
		t.Fatalf("scan after going back an hour = %+v, want a pause and nothing due", found)
	}
	due := scanFor(l, clk, 11*time.Second, a)
	if len(due) != 1 || due[0] != d.Key.Addr {
		t.Fatalf("due one TTL after the jump back = %v, want only %s", due, d.Key.Addr)
	}
}

// Without a pause, the scans see ordinary gaps and expire on schedule.
func TestLessor_ScansWithinThePauseGapExpireOnSchedule(t *testing.T) {
	l, clk, a, d := pausingLessor(t)
	if due := scanFor(l, clk, 10*time.Second, a); len(due) != 0 {
		t.Fatalf("due within the TTL: %v", due)
	}
	if due := scanFor(l, clk, time.Second, a); len(due) != 1 || due[0] != d.Key.Addr {
		t.Fatalf("due after the TTL = %v, want %s", due, d.Key.Addr)
	}
}
