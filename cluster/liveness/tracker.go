package liveness

import (
	"time"

	"github.com/raftns/raftns/fsm/state"
)

// tracker is the leader's soft state about broker liveness: when each
// broker was last heard from (monotonic time), which members hold a live
// connection from it, and when its last connection closed. It is never
// replicated; a new leader builds a fresh one in which every registered
// broker was just heard from (docs/contributors/design.md, "Leader-only liveness"). It
// is not safe for concurrent use; the lessor guards it.
type tracker struct {
	now        func() time.Time
	defaultTTL time.Duration
	grace      time.Duration
	// heldTTL is how long a member's report of held connections counts.
	heldTTL time.Duration

	lastSeen map[state.BrokerKey]time.Time
	closedAt map[state.BrokerKey]time.Time
	held     map[string]heldReport

	// pauseGap is the longest time between two looks (due) that is not a
	// pause of this member; 0 never takes one for a pause. lastLook is
	// the time of the last look.
	pauseGap time.Duration
	lastLook time.Time
}

// heldReport is one member's set of brokers with a live connection to it.
type heldReport struct {
	keys map[state.BrokerKey]struct{}
	at   time.Time
}

func newTracker(now func() time.Time, defaultTTL, grace, heldTTL time.Duration, regs []state.BrokerRegistration) *tracker {
	t := &tracker{
		now:        now,
		defaultTTL: defaultTTL,
		grace:      grace,
		heldTTL:    heldTTL,
		lastSeen:   make(map[state.BrokerKey]time.Time, len(regs)),
		closedAt:   make(map[state.BrokerKey]time.Time),
		held:       make(map[string]heldReport),
	}
	start := now()
	for _, r := range regs {
		t.lastSeen[r.Key] = start
	}
	t.lastLook = start
	return t
}

// touch records that a broker was heard from now.
func (t *tracker) touch(key state.BrokerKey) {
	t.lastSeen[key] = t.now()
}

// setHeld replaces a member's report of the brokers connected to it.
func (t *tracker) setHeld(member string, keys []state.BrokerKey) {
	set := make(map[state.BrokerKey]struct{}, len(keys))
	for _, k := range keys {
		set[k] = struct{}{}
	}
	t.held[member] = heldReport{keys: set, at: t.now()}
}

// connClosed records that member lost the connection a broker registered on.
func (t *tracker) connClosed(member string, key state.BrokerKey) {
	if r, ok := t.held[member]; ok {
		delete(r.keys, key)
	}
	t.closedAt[key] = t.now()
}

// heldByAny reports whether a fresh report says some member still holds a
// connection from the broker.
func (t *tracker) heldByAny(key state.BrokerKey, now time.Time) bool {
	for _, r := range t.held {
		if now.Sub(r.at) > t.heldTTL {
			continue
		}
		if _, ok := r.keys[key]; ok {
			return true
		}
	}
	return false
}

// ttl is the expiry time of one broker: its own registered timeout, or the
// configured default when it registered none.
func (t *tracker) ttl(r state.BrokerRegistration) time.Duration {
	if r.HeartbeatTimeoutMillis <= 0 {
		return t.defaultTTL
	}
	return time.Duration(r.HeartbeatTimeoutMillis) * time.Millisecond
}

// due returns the brokers to expire now: those silent for longer than their
// TTL, and those whose last connection closed more than the grace ago with
// no sign of life since and no other member holding a connection. It also
// forgets brokers that are no longer registered and starts the clock for
// registrations it had not seen.
//
// A look that comes longer than pauseGap after the previous one, or
// before it, means this member was paused (a stalled process, a resumed
// virtual machine) or its clock jumped: what it did not hear meanwhile
// says nothing about the brokers, so every lease restarts as on taking
// office and nothing is due; paused says how long the gap was.
func (t *tracker) due(now time.Time, regs []state.BrokerRegistration) (timedOut, closed []state.ExpiredBroker, paused time.Duration) {
	gap := now.Sub(t.lastLook)
	t.lastLook = now
	if t.pauseGap > 0 && (gap > t.pauseGap || gap < 0) {
		t.restart(now)
		return nil, nil, gap
	}
	known := make(map[state.BrokerKey]struct{}, len(regs))
	for _, r := range regs {
		known[r.Key] = struct{}{}
		seen, ok := t.lastSeen[r.Key]
		if !ok {
			t.lastSeen[r.Key] = now
			continue
		}
		exp := state.ExpiredBroker{Key: r.Key, RegEpoch: r.RegEpoch}
		if now.Sub(seen) > t.ttl(r) {
			timedOut = append(timedOut, exp)
			continue
		}
		if t.closeDue(r.Key, seen, now) {
			closed = append(closed, exp)
		}
	}
	t.forgetUnknown(known)
	return timedOut, closed, 0
}

// restart counts every broker as heard from now, every closed connection
// as closed now and every member's report of held connections as fresh.
func (t *tracker) restart(now time.Time) {
	for k := range t.lastSeen {
		t.lastSeen[k] = now
	}
	for k := range t.closedAt {
		t.closedAt[k] = now
	}
	for m, r := range t.held {
		r.at = now
		t.held[m] = r
	}
}

func (t *tracker) closeDue(key state.BrokerKey, seen, now time.Time) bool {
	at, ok := t.closedAt[key]
	if !ok {
		return false
	}
	if seen.After(at) || t.heldByAny(key, now) {
		delete(t.closedAt, key)
		return false
	}
	return now.Sub(at) >= t.grace
}

func (t *tracker) forgetUnknown(known map[state.BrokerKey]struct{}) {
	for k := range t.lastSeen {
		if _, ok := known[k]; !ok {
			delete(t.lastSeen, k)
		}
	}
	for k := range t.closedAt {
		if _, ok := known[k]; !ok {
			delete(t.closedAt, k)
		}
	}
}

// lastSeenAgo reports how long ago a broker was heard from, for admin output.
func (t *tracker) lastSeenAgo(key state.BrokerKey) (time.Duration, bool) {
	seen, ok := t.lastSeen[key]
	if !ok {
		return 0, false
	}
	return t.now().Sub(seen), true
}
