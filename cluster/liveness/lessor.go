package liveness

import (
	"sort"
	"sync"
	"time"

	"github.com/raftns/raftns/fsm"
)

// ConnEvent is what Heard learned about a broker's connection to this
// member besides a sign of life.
type ConnEvent int

const (
	// ConnNone: a sign of life (an unchanged registration, a heartbeat).
	ConnNone ConnEvent = iota
	// ConnOpened: the broker registered on a new connection here.
	ConnOpened
	// ConnClosed: a connection the broker registered on closed.
	ConnClosed
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
	Clock func() time.Time
	// Registrations lists the registered brokers.
	Registrations func() []fsm.BrokerRegistration
	// ReplicaGroups lists the controller's replica groups (nil: none).
	ReplicaGroups func() []fsm.ReplicaGroup
	// OtherVoters counts the voters besides this member (nil: none).
	OtherVoters func() int
}

// Lessor owns broker liveness on one member (docs/design.md, "Leader-only
// liveness"). Every member batches what it hears from brokers; on the
// leader, between Promote and Demote, the lessor also keeps the lease
// table (tracker) that this member's batch and the followers' batches feed
// and that Due reads. It is safe for concurrent use.
type Lessor struct {
	cfg   Config
	clock func() time.Time

	mu sync.Mutex
	// epoch identifies the current term of office: the Raft index at which
	// this member took office; 0 while it is not the leader.
	epoch    uint64
	leases   *tracker
	replicas *replicaLeases
	batch    heardBatch
}

// heardBatch is what this member heard since its last batch: brokers that
// showed a sign of life, brokers with a live connection here (by count of
// connections) and connections that closed.
type heardBatch struct {
	touched map[fsm.BrokerKey]struct{}
	held    map[fsm.BrokerKey]int
	closed  map[fsm.BrokerKey]struct{}
	// replicas holds the latest controller heartbeat of each replica.
	replicas map[ReplicaKey]ControllerHeartbeat
	// recentlyClosed holds brokers whose last connection here closed, and
	// when, until they connect again or the report ages out; every batch
	// repeats them, so a leader that took office after the close still
	// learns of it (docs/controller.md, "Liveness").
	recentlyClosed map[fsm.BrokerKey]time.Time
}

// New returns the lessor of a member that is not the leader.
func New(cfg Config) *Lessor {
	clock := cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	return &Lessor{
		cfg: cfg, clock: clock,
		batch: heardBatch{
			touched:        map[fsm.BrokerKey]struct{}{},
			held:           map[fsm.BrokerKey]int{},
			closed:         map[fsm.BrokerKey]struct{}{},
			replicas:       map[ReplicaKey]ControllerHeartbeat{},
			recentlyClosed: map[fsm.BrokerKey]time.Time{},
		},
	}
}

// Promote starts a term of office: a fresh lease table in which every
// registered broker was just heard from, whatever the previous leader knew.
// What this member queued meanwhile moves into it.
func (l *Lessor) Promote(epoch uint64) {
	regs := l.cfg.Registrations()
	var groups []fsm.ReplicaGroup
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
// the leader should scan for expiries once the close grace has passed (the
// broker's last connection here closed).
func (l *Lessor) Heard(key fsm.BrokerKey, ev ConnEvent) (scanAfterGrace bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
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
// this member holds one (is the leader) and whether connections closed.
func (l *Lessor) Receive(args *Batch) (accepted, closed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return false, false
	}
	l.receiveLocked(args.From, args)
	return true, len(args.Closed) > 0
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

// Drain takes this member's batch for the leader and starts a new one.
func (l *Lessor) Drain() *Batch {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.drainLocked()
}

func (l *Lessor) drainLocked() *Batch {
	b := &Batch{From: l.cfg.Self, Touched: sortedKeys(l.batch.touched), Held: sortedKeys(l.batch.held), Closed: sortedKeys(l.batch.closed)}
	for _, hb := range l.batch.replicas {
		b.Replicas = append(b.Replicas, hb)
	}
	now := l.clock()
	for k, at := range l.batch.recentlyClosed {
		if now.Sub(at) > l.cfg.ControllerHeartbeatTimeout {
			delete(l.batch.recentlyClosed, k)
		}
	}
	b.RecentlyClosed = sortedKeys(l.batch.recentlyClosed)
	clear(l.batch.touched)
	clear(l.batch.closed)
	clear(l.batch.replicas)
	return b
}

// Restore puts back a batch the leader did not take.
func (l *Lessor) Restore(b *Batch) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range b.Touched {
		l.batch.touched[k] = struct{}{}
	}
	for _, k := range b.Closed {
		if l.batch.held[k] == 0 {
			l.batch.closed[k] = struct{}{}
		}
	}
	for _, hb := range b.Replicas {
		if _, newer := l.batch.replicas[hb.Key]; !newer {
			l.batch.replicas[hb.Key] = hb
		}
	}
}

// HeardReplica records a controller heartbeat: into the leader's table, or
// this member's batch for the leader.
func (l *Lessor) HeardReplica(hb ControllerHeartbeat) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas != nil {
		l.replicas.heard(hb)
		return
	}
	l.batch.replicas[hb.Key] = hb
}

// ReplicaAlive reports whether the leader counts a replica as active; false
// when this member holds no lease table.
func (l *Lessor) ReplicaAlive(key ReplicaKey) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas == nil {
		return false
	}
	l.leases.setHeld(l.cfg.Self, sortedKeys(l.batch.held))
	return l.replicas.alive(key, l.clock(), l.leases)
}

// PruneReplicas forgets what the leader holds about replicas no longer in
// groups.
func (l *Lessor) PruneReplicas(groups []fsm.ReplicaGroup) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas != nil {
		l.replicas.prune(groups)
	}
}

// ReplicaLive returns the log position a replica last reported to this
// leader.
func (l *Lessor) ReplicaLive(key ReplicaKey) (ReplicaLive, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas == nil {
		return ReplicaLive{}, false
	}
	r, ok := l.replicas.leases[key]
	if !ok {
		return ReplicaLive{}, false
	}
	return r.live, true
}

// ReplicasSettleAt is when connection closes seen around taking office
// start to count (zero when not in office).
func (l *Lessor) ReplicasSettleAt() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas == nil {
		return time.Time{}
	}
	return l.replicas.settledAt
}

// dueExpiries is what Due found.
type dueExpiries struct {
	// epoch is the term of office that decided; a proposal is made only
	// while it lasts.
	epoch            uint64
	registered       int
	timedOut, closed []fsm.ExpiredBroker
}

// Due returns the brokers to expire at now, or false when this member
// holds no lease table.
func (l *Lessor) Due(now time.Time) (dueExpiries, bool) {
	regs := l.cfg.Registrations()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return dueExpiries{}, false
	}
	l.leases.setHeld(l.cfg.Self, sortedKeys(l.batch.held))
	timedOut, closed := l.leases.due(now, regs)
	return dueExpiries{epoch: l.epoch, registered: len(regs), timedOut: timedOut, closed: closed}, true
}

// LastSeenAgo reports how long ago the leader heard from a broker.
func (l *Lessor) LastSeenAgo(key fsm.BrokerKey) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return 0, false
	}
	return l.leases.lastSeenAgo(key)
}

func sortedKeys[V any](m map[fsm.BrokerKey]V) []fsm.BrokerKey {
	out := make([]fsm.BrokerKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cluster != out[j].Cluster {
			return out[i].Cluster < out[j].Cluster
		}
		return out[i].Addr < out[j].Addr
	})
	return out
}
