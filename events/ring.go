package events

import (
	"fmt"
	"sync"
	"time"

	"github.com/raftns/raftns/fsm"
)

// Kinds of events.
const (
	KindBrokerRegistered   = "broker-registered"
	KindBrokerUnregistered = "broker-unregistered"
	KindBrokerExpired      = "broker-expired"
	KindLeaderChanged      = "leader-changed"
	KindMemberAdded        = "member-added"
	KindMemberRemoved      = "member-removed"
	KindMemberChanged      = "member-changed"
)

// DefaultCapacity is how many events a ring keeps unless told otherwise.
const DefaultCapacity = 300

// Event is one thing a member saw happen.
type Event struct {
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"`
	Cluster string    `json:"cluster,omitempty"`
	Broker  string    `json:"broker,omitempty"`
	Addr    string    `json:"addr,omitempty"`
	Member  string    `json:"member,omitempty"`
	Reason  string    `json:"reason,omitempty"`
	Term    uint64    `json:"term,omitempty"`
	Index   uint64    `json:"index,omitempty"`
	// Text is a one-line summary for people.
	Text string `json:"text"`
}

// Ring keeps the newest events up to a fixed capacity; older ones are
// dropped. It is safe for concurrent use.
type Ring struct {
	mu    sync.Mutex
	now   func() time.Time
	buf   []Event
	next  int
	count int
}

// NewRing returns a ring that keeps the last capacity events (at least 1).
func NewRing(capacity int) *Ring {
	if capacity < 1 {
		capacity = 1
	}
	return &Ring{now: time.Now, buf: make([]Event, capacity)}
}

// Add records e, stamping it with the current time when it has none.
func (r *Ring) Add(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Time.IsZero() {
		e.Time = r.now()
	}
	r.buf[r.next] = e
	r.next = (r.next + 1) % len(r.buf)
	if r.count < len(r.buf) {
		r.count++
	}
}

// Recent returns up to max events, newest first; max <= 0 means all kept.
func (r *Ring) Recent(max int) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if max <= 0 || max > r.count {
		max = r.count
	}
	out := make([]Event, 0, max)
	for i := 1; i <= max; i++ {
		out = append(out, r.buf[(r.next-i+len(r.buf))%len(r.buf)])
	}
	return out
}

// Capacity returns how many events the ring keeps.
func (r *Ring) Capacity() int { return len(r.buf) }

// BrokerChanged records a broker change the FSM applied; it makes a Ring an
// fsm.Observer.
func (r *Ring) BrokerChanged(c fsm.BrokerChange) {
	e := Event{Cluster: c.Cluster, Broker: c.BrokerName, Addr: c.Addr, Reason: c.Reason, Index: c.Index}
	switch c.Kind {
	case fsm.BrokerRegistered:
		e.Kind = KindBrokerRegistered
		e.Text = fmt.Sprintf("broker %s (id %d, %s) registered in cluster %s", c.BrokerName, c.BrokerID, c.Addr, c.Cluster)
	case fsm.BrokerUnregistered:
		e.Kind = KindBrokerUnregistered
		e.Text = fmt.Sprintf("broker %s (id %d, %s) unregistered from cluster %s", c.BrokerName, c.BrokerID, c.Addr, c.Cluster)
	case fsm.BrokerExpired:
		e.Kind = KindBrokerExpired
		e.Text = fmt.Sprintf("broker %s (id %d, %s) of cluster %s expired: %s", c.BrokerName, c.BrokerID, c.Addr, c.Cluster, c.Reason)
	default:
		e.Kind = string(c.Kind)
		e.Text = fmt.Sprintf("broker %s (%s) of cluster %s: %s", c.BrokerName, c.Addr, c.Cluster, c.Kind)
	}
	r.Add(e)
}

var _ fsm.Observer = (*Ring)(nil)
