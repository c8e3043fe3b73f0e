package cluster

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

// lessor owns broker liveness on one member (docs/design.md, "Leader-only
// liveness"). Every member batches what it hears from brokers; on the
// leader, between Promote and Demote, the lessor also keeps the lease
// table (tracker) that this member's batch and the followers' batches feed
// and that Due reads. It is safe for concurrent use.
type lessor struct {
	self      string
	cfg       *Config
	clock     func() time.Time
	registers func() []fsm.BrokerRegistration

	mu sync.Mutex
	// epoch identifies the current term of office: the Raft index at which
	// this member took office; 0 while it is not the leader.
	epoch  uint64
	leases *tracker
	batch  heardBatch
}

// heardBatch is what this member heard since its last batch: brokers that
// showed a sign of life, brokers with a live connection here (by count of
// connections) and connections that closed.
type heardBatch struct {
	touched map[fsm.BrokerKey]struct{}
	held    map[fsm.BrokerKey]int
	closed  map[fsm.BrokerKey]struct{}
}

func newLessor(self string, cfg *Config, clock func() time.Time, registers func() []fsm.BrokerRegistration) *lessor {
	return &lessor{
		self: self, cfg: cfg, clock: clock, registers: registers,
		batch: heardBatch{
			touched: map[fsm.BrokerKey]struct{}{},
			held:    map[fsm.BrokerKey]int{},
			closed:  map[fsm.BrokerKey]struct{}{},
		},
	}
}

// Promote starts a term of office: a fresh lease table in which every
// registered broker was just heard from, whatever the previous leader knew.
// What this member queued meanwhile moves into it.
func (l *lessor) Promote(epoch uint64) {
	regs := l.registers()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.epoch = epoch
	l.leases = newTracker(l.clock, l.cfg.BrokerExpiry, l.cfg.ConnCloseGrace,
		heldReportMaxAge*l.cfg.HeartbeatBatchInterval, regs)
	l.receiveLocked(l.self, l.drainLocked())
}

// Demote ends the term of office and discards the lease table.
func (l *lessor) Demote() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.epoch, l.leases = 0, nil
}

// Epoch returns the current term of office, 0 when not the leader.
func (l *lessor) Epoch() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.epoch
}

// Heard records what this member learned of a broker. It reports whether
// the leader should scan for expiries once the close grace has passed (the
// broker's last connection here closed).
func (l *lessor) Heard(key fsm.BrokerKey, ev ConnEvent) (scanAfterGrace bool) {
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
	case ConnClosed:
		if l.batch.held[key]--; l.batch.held[key] > 0 {
			return false
		}
		delete(l.batch.held, key)
		if l.leases == nil {
			l.batch.closed[key] = struct{}{}
			return false
		}
		l.leases.connClosed(l.self, key)
		return true
	}
	return false
}

// Receive takes a member's batch into the lease table. It reports whether
// this member holds one (is the leader) and whether connections closed.
func (l *lessor) Receive(args *HeartbeatArgs) (accepted, closed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return false, false
	}
	l.receiveLocked(args.From, args)
	return true, len(args.Closed) > 0
}

func (l *lessor) receiveLocked(from string, args *HeartbeatArgs) {
	for _, k := range args.Touched {
		l.leases.touch(k)
	}
	l.leases.setHeld(from, args.Held)
	for _, k := range args.Closed {
		l.leases.connClosed(from, k)
	}
}

// Drain takes this member's batch for the leader and starts a new one.
func (l *lessor) Drain() *HeartbeatArgs {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.drainLocked()
}

func (l *lessor) drainLocked() *HeartbeatArgs {
	b := &HeartbeatArgs{From: l.self, Touched: sortedKeys(l.batch.touched), Held: sortedKeys(l.batch.held), Closed: sortedKeys(l.batch.closed)}
	clear(l.batch.touched)
	clear(l.batch.closed)
	return b
}

// Restore puts back a batch the leader did not take.
func (l *lessor) Restore(b *HeartbeatArgs) {
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
func (l *lessor) Due(now time.Time) (dueExpiries, bool) {
	regs := l.registers()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.leases == nil {
		return dueExpiries{}, false
	}
	l.leases.setHeld(l.self, sortedKeys(l.batch.held))
	timedOut, closed := l.leases.due(now, regs)
	return dueExpiries{epoch: l.epoch, registered: len(regs), timedOut: timedOut, closed: closed}, true
}

// LastSeenAgo reports how long ago the leader heard from a broker.
func (l *lessor) LastSeenAgo(key fsm.BrokerKey) (time.Duration, bool) {
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
