// Package deadline bounds a request by a deadline without arming a timer
// for it until something waits on it.
//
// context.WithTimeout arms a runtime timer per call. A member gives every
// write request a deadline, and most writes are answered before their
// deadline without anything selecting on their context: through the leader
// nothing waits on it at all. Under 64 registering brokers, perf put the
// timer's context at 3 µs of a single member's 110-125 µs of CPU per write
// (docs/contributors/benchmarks.md). WithTimeout here reports its deadline at once
// (Deadline, which is what the Raft apply timeout is taken from) and arms
// the timer only when Done or Err is first asked for.
package deadline

import (
	"context"
	"sync"
	"time"
)

// WithTimeout is context.WithTimeout(parent, d) with its timer armed on
// the first call to Done or Err. The returned context behaves as
// context.WithTimeout's does; cancel releases it and must be called when
// the work is done.
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	c := &lazy{parent: parent, deadline: time.Now().Add(d)}
	return c, c.release
}

// lazy is a context whose deadline timer is armed on demand.
type lazy struct {
	parent   context.Context
	deadline time.Time

	mu       sync.Mutex
	armed    context.Context // context.WithDeadline of parent, once asked for
	cancel   context.CancelFunc
	released bool
}

// Deadline returns the earlier of the parent's deadline and this one's,
// as context.WithDeadline does, without arming anything.
func (c *lazy) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done arms the timer and returns the channel closed at the deadline, on
// release or when the parent is done.
func (c *lazy) Done() <-chan struct{} { return c.arm().Done() }

// Err arms the timer and returns why the context is done, if it is.
func (c *lazy) Err() error { return c.arm().Err() }

// Value returns the armed context's value for key, or the parent's. Once
// armed, the armed context answers, so that contexts derived from this one
// find its cancellation as the context package expects and are cancelled
// with it without a goroutine of their own.
func (c *lazy) Value(key any) any {
	c.mu.Lock()
	armed := c.armed
	c.mu.Unlock()
	if armed != nil {
		return armed.Value(key)
	}
	return c.parent.Value(key)
}

func (c *lazy) arm() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed == nil {
		if c.released {
			return releasedContext
		}
		c.armed, c.cancel = context.WithDeadline(c.parent, c.deadline)
	}
	return c.armed
}

// release cancels the context: it stops the timer if one was armed, and
// makes a later Done or Err answer as for a cancelled context.
func (c *lazy) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.released = true
	if c.cancel != nil {
		c.cancel()
	}
}

// releasedContext stands for a context released before anything waited on
// it.
var releasedContext = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()
