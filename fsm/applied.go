package fsm

import (
	"context"
	"sync"
	"sync/atomic"
)

// appliedIndex is the index of the last entry the FSM applied, with a
// condition that goroutines waiting for it to reach a value sleep on. The
// waiters share one channel, closed and dropped at the next store, so
// memory stays one channel however many wait, and a store with nobody
// waiting costs one atomic load more than the store itself.
type appliedIndex struct {
	v       atomic.Uint64
	waiting atomic.Bool
	mu      sync.Mutex
	next    chan struct{} // closed at the next store; nil while nobody waits
}

// Load returns the applied index.
func (a *appliedIndex) Load() uint64 { return a.v.Load() }

// Store sets the applied index and wakes every waiter, which looks again.
func (a *appliedIndex) Store(i uint64) {
	a.v.Store(i)
	if !a.waiting.Load() {
		return
	}
	a.mu.Lock()
	if a.next != nil {
		close(a.next)
		a.next = nil
	}
	a.waiting.Store(false)
	a.mu.Unlock()
}

// wait returns nil once the applied index is at least i, or ctx's error
// if ctx ends first.
func (a *appliedIndex) wait(ctx context.Context, i uint64) error {
	for a.v.Load() < i {
		a.mu.Lock()
		if a.next == nil {
			a.next = make(chan struct{})
		}
		next := a.next
		a.waiting.Store(true)
		a.mu.Unlock()
		// Looked at again after announcing the wait: a store in between
		// either saw the announcement or is seen here.
		if a.v.Load() >= i {
			return nil
		}
		select {
		case <-next:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// WaitApplied returns nil once the FSM has applied the log entry at index
// (or restored a snapshot that stands for it or a later one), or ctx's
// error if ctx ends first. index must be one the FSM sees: a command or
// configuration entry, as AppliedIndex reports them. It costs one atomic
// load when the entry is already applied and no goroutine while it waits.
func (f *FSM) WaitApplied(ctx context.Context, index uint64) error {
	return f.applied.wait(ctx, index)
}
