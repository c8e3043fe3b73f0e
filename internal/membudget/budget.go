// Package membudget bounds the request bytes one process holds at once:
// frames read from the client port and register bodies inflated from them
// draw on one shared budget, so what a member buffers is set by its
// configuration, not by what senders choose to send.
package membudget

import (
	"context"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// Budget is a process-wide byte budget. A nil *Budget is unlimited. Its
// methods are safe for concurrent use.
type Budget struct {
	limit   int64
	sem     *semaphore.Weighted
	inUse   atomic.Int64
	refused atomic.Uint64
	peak    atomic.Int64
}

// New returns a budget of limit bytes; limit ≤ 0 returns nil (unlimited).
func New(limit int64) *Budget {
	if limit <= 0 {
		return nil
	}
	return &Budget{limit: limit, sem: semaphore.NewWeighted(limit)}
}

// Acquire takes n bytes, waiting up to wait for others to release them. It
// reports false, and counts a refusal, when n exceeds the whole budget, when
// the bytes did not free up in time, or when ctx ended first.
func (b *Budget) Acquire(ctx context.Context, n int64, wait time.Duration) bool {
	if b == nil || n <= 0 {
		return true
	}
	if n > b.limit {
		b.refused.Add(1)
		return false
	}
	if !b.sem.TryAcquire(n) {
		if wait <= 0 {
			b.refused.Add(1)
			return false
		}
		wctx, cancel := context.WithTimeout(ctx, wait)
		err := b.sem.Acquire(wctx, n)
		cancel()
		if err != nil {
			b.refused.Add(1)
			return false
		}
	}
	used := b.inUse.Add(n)
	for p := b.peak.Load(); used > p && !b.peak.CompareAndSwap(p, used); p = b.peak.Load() {
	}
	return true
}

// Release returns n bytes taken by Acquire.
func (b *Budget) Release(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.inUse.Add(-n)
	b.sem.Release(n)
}

// Limit returns the budget in bytes, 0 when unlimited.
func (b *Budget) Limit() int64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// InUse returns the bytes held now.
func (b *Budget) InUse() int64 {
	if b == nil {
		return 0
	}
	return b.inUse.Load()
}

// Peak returns the most bytes ever held at once.
func (b *Budget) Peak() int64 {
	if b == nil {
		return 0
	}
	return b.peak.Load()
}

// Refused returns how many acquisitions were refused.
func (b *Budget) Refused() uint64 {
	if b == nil {
		return 0
	}
	return b.refused.Load()
}

// Account is a growing charge against a budget, for memory that grows as it
// is produced (an inflating body). It is not safe for concurrent use.
type Account struct {
	b    *Budget
	ctx  context.Context
	wait time.Duration
	held int64
}

// NewAccount returns an empty account on b; Grow waits up to wait.
func (b *Budget) NewAccount(ctx context.Context, wait time.Duration) *Account {
	return &Account{b: b, ctx: ctx, wait: wait}
}

// Grow charges n more bytes; false when the budget refused them.
func (a *Account) Grow(n int64) bool {
	if a == nil {
		return true
	}
	if !a.b.Acquire(a.ctx, n, a.wait) {
		return false
	}
	if a.b != nil {
		a.held += n
	}
	return true
}

// Close releases everything the account holds.
func (a *Account) Close() {
	if a == nil {
		return
	}
	a.b.Release(a.held)
	a.held = 0
}
