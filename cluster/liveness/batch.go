package liveness

import (
	"sort"
	"time"

	"github.com/raftns/raftns/fsm/state"
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

// Batch is one member's batch of what it heard since its last batch:
// brokers that registered unchanged or sent heartbeats, the brokers with a
// live connection to it, and the connections that closed. A follower sends
// it to the leader about once a second.
type Batch struct {
	From    string
	Touched []state.BrokerKey
	Held    []state.BrokerKey
	Closed  []state.BrokerKey
	// Replicas are the controller heartbeats heard (the latest of each).
	Replicas []ControllerHeartbeat
	// RecentlyClosed are brokers whose last connection here closed lately
	// and has not reopened; repeated in every batch while it lasts.
	RecentlyClosed []state.BrokerKey
	// SenderReadiness says whether the sending member serves reads:
	// SenderReady, SenderNotReady, or zero from a member of a release
	// that does not say. This package neither sets nor reads it: the
	// cluster package fills it in before sending, and the leader lists
	// ready members in the address service. A leader of a release without
	// it ignores it.
	SenderReadiness uint8
}

// The values of Batch.SenderReadiness; zero is "not said".
const (
	SenderReady    uint8 = 1
	SenderNotReady uint8 = 2
)

// heardBatch is what this member heard since its last batch: brokers that
// showed a sign of life, brokers with a live connection here (by count of
// connections) and connections that closed.
type heardBatch struct {
	touched map[state.BrokerKey]struct{}
	held    map[state.BrokerKey]int
	closed  map[state.BrokerKey]struct{}
	// replicas holds the latest controller heartbeat of each replica.
	replicas map[ReplicaKey]ControllerHeartbeat
	// recentlyClosed holds brokers whose last connection here closed, and
	// when, until they connect again or the report ages out; every batch
	// repeats them, so a leader that took office after the close still
	// learns of it (docs/operators/controller.md, "Liveness").
	recentlyClosed map[state.BrokerKey]time.Time
}

// drain takes this member's batch for the leader and starts a new one.
func (l *Lessor) drain() *Batch {
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

// restore puts back a batch the leader did not take.
func (l *Lessor) restore(b *Batch) {
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

func sortedKeys[V any](m map[state.BrokerKey]V) []state.BrokerKey {
	out := make([]state.BrokerKey, 0, len(m))
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
