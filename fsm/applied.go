package fsm

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// appliedIndex is the index of the last entry the FSM applied, with the
// goroutines waiting for it to reach a value. Waiters for the same index
// share one channel, closed by the store that reaches it, so each waiter is
// woken once, when its entry is applied, however often the index moves
// (after every entry, while a member that fell behind in a restart storm has
// hundreds of forwarded writes waiting). A store below every waited-for
// index costs one atomic load more than the store itself.
type appliedIndex struct {
	v atomic.Uint64
	// lowest is the smallest index waited for, MaxUint64 while nobody
	// waits.
	lowest  atomic.Uint64
	mu      sync.Mutex
	waiters map[uint64]chan struct{}
}

// Load returns the applied index.
func (a *appliedIndex) Load() uint64 { return a.v.Load() }

// Store sets the applied index and wakes the waiters it reaches.
func (a *appliedIndex) Store(i uint64) {
	a.v.Store(i)
	if low := a.lowest.Load(); low == 0 || i < low {
		return // 0: nobody ever waited (the zero value)
	}
	a.mu.Lock()
	low := uint64(math.MaxUint64)
	for idx, ch := range a.waiters {
		if idx <= i {
			close(ch)
			delete(a.waiters, idx)
		} else {
			low = min(low, idx)
		}
	}
	a.lowest.Store(low)
	a.mu.Unlock()
}

// wait returns nil once the applied index is at least i, or ctx's error
// if ctx ends first.
func (a *appliedIndex) wait(ctx context.Context, i uint64) error {
	if a.v.Load() >= i {
		return nil
	}
	a.mu.Lock()
	if a.waiters == nil {
		a.waiters = map[uint64]chan struct{}{}
	}
	ch, ok := a.waiters[i]
	if !ok {
		ch = make(chan struct{})
		a.waiters[i] = ch
	}
	if low := a.lowest.Load(); low == 0 || i < low {
		a.lowest.Store(i)
	}
	a.mu.Unlock()
	// Looked at again after announcing the wait: a store in between
	// either saw the announcement or is seen here.
	if a.v.Load() >= i {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WaitApplied returns nil once the FSM has applied the log entry at index
// (or restored a snapshot that stands for it or a later one), or ctx's
// error if ctx ends first. index must be one the FSM sees: a command or
// configuration entry, as AppliedIndex reports them. It costs one atomic
// load when the entry is already applied and no goroutine while it waits.
func (f *FSM) WaitApplied(ctx context.Context, index uint64) error {
	return f.applied.wait(ctx, index)
}
