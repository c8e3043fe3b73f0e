package liveness

import (
	"sync"
	"time"

	"github.com/raftns/raftns/fsm/state"
)

// heldReportMaxAge is how many heartbeat batch intervals a member's report
// of its held connections counts.
const heldReportMaxAge = 3

// Config is what a Lessor needs from the member: its ID, the liveness
// settings of cluster.Config, a clock and reads of the replicated state.
type Config struct {
	// Self is this member's Raft ID.
	Self string
	// BrokerExpiry, ConnCloseGrace, HeartbeatBatchInterval and
	// ControllerHeartbeatTimeout are the member's settings of those names.
	BrokerExpiry               time.Duration
	ConnCloseGrace             time.Duration
	HeartbeatBatchInterval     time.Duration
	ControllerHeartbeatTimeout time.Duration
	// Clock tells the time every lease is measured with; nil is time.Now.
	// Its readings must be monotonic (time.Now's carry Go's monotonic
	// clock): a step of the wall clock must move no lease.
	// Timers run on real time: the courier's pace and the expiry scan asked
	// for once a close's grace has passed.
	Clock func() time.Time
	// PauseGap is the longest time between two expiry scans that is not
	// taken for a pause of this member (0: none is); after a longer one
	// every lease restarts instead of expiring (docs/contributors/design.md, "Time").
	PauseGap time.Duration
	// Registrations lists the registered brokers.
	Registrations func() []state.BrokerRegistration
	// ReplicaGroups lists the controller's replica groups (nil: none).
	ReplicaGroups func() []state.ReplicaGroup
	// OtherVoters counts the voters besides this member (nil: none).
	OtherVoters func() int
	// ConnClosed is told, off the lessor's lock, when a broker's
	// connection closed on this leader or in a member's batch, so that the
	// controller looks at its masters at once; nil: nobody is told.
	ConnClosed func()
}

// Lessor owns broker liveness on one member (docs/contributors/design.md, "Leader-only
// liveness"). Every member batches what it hears from brokers; on the
// leader, between Promote and Demote, the lessor also keeps the lease
// table (tracker) that this member's batch and the followers' batches feed
// and that the expiry scan reads. It is safe for concurrent use.
type Lessor struct {
	cfg   Config
	clock func() time.Time
	// scanNow asks the leader loop for an expiry scan before the next tick.
	scanNow chan struct{}

	mu sync.Mutex
	// scanAt is when the last scan request armed after a close fires;
	// scansArmed counts those requests.
	scanAt     time.Time
	scansArmed int
	// epoch identifies the current term of office: the Raft index at which
	// this member took office; 0 while it is not the leader.
	epoch    uint64
	leases   *tracker
	replicas *replicaLeases
	batch    heardBatch
}

// New returns the lessor of a member that is not the leader.
func New(cfg Config) *Lessor {
	clock := cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	return &Lessor{
		cfg: cfg, clock: clock, scanNow: make(chan struct{}, 1),
		batch: heardBatch{
			touched:        map[state.BrokerKey]struct{}{},
			held:           map[state.BrokerKey]int{},
			closed:         map[state.BrokerKey]struct{}{},
			replicas:       map[ReplicaKey]ControllerHeartbeat{},
			recentlyClosed: map[state.BrokerKey]time.Time{},
		},
	}
}

// Promote starts a term of office: a fresh lease table in which every
// registered broker was just heard from, whatever the previous leader knew.
// What this member queued meanwhile moves into it.
func (l *Lessor) Promote(epoch uint64) {
	regs := l.cfg.Registrations()
	var groups []state.ReplicaGroup
	if l.cfg.ReplicaGroups != nil {
		groups = l.cfg.ReplicaGroups()
	}
	others := 0
	if l.cfg.OtherVoters != nil {
		others = l.cfg.OtherVoters()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.epoch = epoch
	l.leases = newTracker(l.clock, l.cfg.BrokerExpiry, l.cfg.ConnCloseGrace,
		heldReportMaxAge*l.cfg.HeartbeatBatchInterval, regs)
	l.leases.pauseGap = l.cfg.PauseGap
	l.replicas = newReplicaLeases(l.clock, l.cfg.ControllerHeartbeatTimeout, l.cfg.HeartbeatBatchInterval/2+SettleMargin, others, groups)
	l.receiveLocked(l.cfg.Self, l.drainLocked())
}

// Demote ends the term of office and discards the lease table.
func (l *Lessor) Demote() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.epoch, l.leases, l.replicas = 0, nil, nil
}

// Epoch returns the current term of office, 0 when not the leader.
func (l *Lessor) Epoch() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.epoch
}

// Heard records what this member learned of a broker. It reports whether
// the broker's last connection here closed while this member leads: then
// the lessor asks for an expiry scan once the close grace has passed, and
// tells Config.ConnClosed.
func (l *Lessor) Heard(key state.BrokerKey, ev ConnEvent) (closedOnLeader bool) {
	l.mu.Lock()
	closedOnLeader = l.heardLocked(key, ev)
	l.mu.Unlock()
	if closedOnLeader {
		l.scanAfterGrace()
		l.tellConnClosed()
	}
	return closedOnLeader
}

func (l *Lessor) heardLocked(key state.BrokerKey, ev ConnEvent) bool {
	switch ev {
	case ConnNone:
		if l.leases != nil {
			l.leases.touch(key)
		} else {
			l.batch.touched[key] = struct{}{}
		}
	case ConnOpened:
		l.batch.held[key]++
		delete(l.batch.closed, key)
		delete(l.batch.recentlyClosed, key)
	case ConnClosed:
		if l.batch.held[key]--; l.batch.held[key] > 0 {
			return false
		}
		delete(l.batch.held, key)
		l.batch.recentlyClosed[key] = l.clock()
		if l.leases == nil {
			l.batch.closed[key] = struct{}{}
			return false
		}
		l.leases.connClosed(l.cfg.Self, key)
		l.replicas.connClosed(key)
		return true
	}
	return false
}

// Receive takes a member's batch into the lease table. It reports whether
// this member holds one (is the leader in office). Closed connections in
// an accepted batch ask for an expiry scan once the close grace has
// passed; they, and the connections the batch reports recently closed,
// are told to Config.ConnClosed.
func (l *Lessor) Receive(b *Batch) (accepted bool) {
	l.mu.Lock()
	if accepted = l.leases != nil; accepted {
		l.receiveLocked(b.From, b)
	}
	l.mu.Unlock()
	closed := accepted && len(b.Closed) > 0
	if closed {
		l.scanAfterGrace()
	}
	if closed || len(b.RecentlyClosed) > 0 {
		l.tellConnClosed()
	}
	return accepted
}

func (l *Lessor) receiveLocked(from string, args *Batch) {
	for _, k := range args.Touched {
		l.leases.touch(k)
	}
	l.leases.setHeld(from, args.Held)
	for _, k := range args.Closed {
		l.leases.connClosed(from, k)
	}
	for _, hb := range args.Replicas {
		l.replicas.heard(hb)
	}
	for _, k := range args.RecentlyClosed {
		l.replicas.reportClosed(k)
	}
	if from != l.cfg.Self {
		l.replicas.reporters[from] = true
	}
}

// dueExpiries is what due found.
type dueExpiries struct {
	// epoch is the term of office that decided; a proposal is made only
	// while it lasts.
	epoch            uint64
	registered       int
	timedOut, closed []state.ExpiredBroker
	// paused is the gap since the previous scan when it was a pause of
	// this member: the leases restarted and nothing is due.
	paused time.Duration
}

// due returns the brokers to expire at now, or false when this member
// holds no lease table.
func (l *Lessor) due(now time.Time) (dueExpiries, bool) {
	regs := l.cfg.Registrations()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return dueExpiries{}, false
	}
	l.leases.setHeld(l.cfg.Self, sortedKeys(l.batch.held))
	timedOut, closed, paused := l.leases.due(now, regs)
	return dueExpiries{epoch: l.epoch, registered: len(regs), timedOut: timedOut, closed: closed, paused: paused}, true
}

// LastSeenAgo reports how long ago the leader heard from a broker.
func (l *Lessor) LastSeenAgo(key state.BrokerKey) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return 0, false
	}
	return l.leases.lastSeenAgo(key)
}

// Leases returns the lease of every registered broker the lease table
// knows, in the order of the registrations; false when this member holds
// no table.
func (l *Lessor) Leases() ([]Lease, bool) {
	regs := l.cfg.Registrations()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return nil, false
	}
	out := make([]Lease, 0, len(regs))
	for _, r := range regs {
		if ago, ok := l.leases.lastSeenAgo(r.Key); ok {
			out = append(out, Lease{Key: r.Key, SinceHeard: ago, TTL: l.leases.ttl(r)})
		}
	}
	return out, true
}

// Lease is what the leader knows of one registered broker's liveness.
type Lease struct {
	Key state.BrokerKey
	// SinceHeard is how long ago any member last heard from the broker.
	SinceHeard time.Duration
	// TTL is how long the broker may stay silent before it is expired.
	TTL time.Duration
}

// scanSlack is how late after a close's grace the scan it asks for may
// come: the closes within it share one scan. A restart storm closes (or
// unregisters) thousands of brokers within seconds; one scan each would
// copy and walk every registration dozens of times a second.
const scanSlack = 250 * time.Millisecond

// scanAfterGrace asks the leader loop for an expiry scan once the close
// grace has passed, so that the grace is honoured to the second; a request
// already armed to fire after the grace serves this close too.
func (l *Lessor) scanAfterGrace() {
	now := time.Now()
	due := now.Add(l.cfg.ConnCloseGrace)
	l.mu.Lock()
	if !l.scanAt.Before(due) {
		l.mu.Unlock()
		return
	}
	l.scanAt = due.Add(scanSlack)
	l.scansArmed++
	at := l.scanAt
	l.mu.Unlock()
	time.AfterFunc(at.Sub(now), func() {
		select {
		case l.scanNow <- struct{}{}:
		default:
		}
	})
}

func (l *Lessor) tellConnClosed() {
	if l.cfg.ConnClosed != nil {
		l.cfg.ConnClosed()
	}
}
