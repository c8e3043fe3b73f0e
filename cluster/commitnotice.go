package cluster

import (
	"sync/atomic"
)

// commitNotice makes the leader tell its followers the commit index soon
// after it answered a change it ran for one of them.
//
// A member that forwarded a write waits, before it answers, until it has
// applied the write itself (catchUp). A follower applies what it knows to
// be committed, and hashicorp/raft tells it the commit index only in
// AppendEntries that carry entries, or in an empty one after CommitTimeout
// (50–100 ms) without any: its heartbeats carry none. While proposals keep
// coming their AppendEntries carry the commit index; once the last
// proposal in flight is answered, and a change was answered for another
// member since the last notice, the notice appends a Raft barrier, whose
// AppendEntries carries the commit index at once. At most one barrier is
// in flight: changes answered meanwhile are covered by the next one.
type commitNotice struct {
	// barrier appends a barrier entry and returns once it is applied
	// here, or failed (on a member that does not lead, at once).
	barrier  func()
	inflight atomic.Int64 // proposals waiting for their answer
	owed     atomic.Bool  // a change was answered for another member since the last barrier
	kick     chan struct{}
}

func newCommitNotice(barrier func()) *commitNotice {
	return &commitNotice{barrier: barrier, kick: make(chan struct{}, 1)}
}

// proposing counts a proposal in flight.
func (c *commitNotice) proposing() { c.inflight.Add(1) }

// proposed counts a proposal answered; the last one in flight sends the
// notice owed.
func (c *commitNotice) proposed() {
	if c.inflight.Add(-1) == 0 && c.owed.Load() {
		c.wake()
	}
}

// answered records a change answered for another member. With no
// proposal in flight the notice goes now; otherwise the last one's answer
// sends it (whichever of the two looks second sees the other).
func (c *commitNotice) answered() {
	c.owed.Store(true)
	if c.inflight.Load() == 0 {
		c.wake()
	}
}

func (c *commitNotice) wake() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// run sends the notices until stop closes.
func (c *commitNotice) run(stop <-chan struct{}) {
	for {
		select {
		case <-c.kick:
		case <-stop:
			return
		}
		if c.owed.Swap(false) {
			c.barrier()
		}
	}
}
