package membudget

import (
	"context"
	"testing"
	"time"
)

func TestBudget_RefusesBeyondLimitAndCountsIt(t *testing.T) {
	b := New(100)
	ctx := context.Background()
	if !b.Acquire(ctx, 60, 0) {
		t.Fatal("60 of 100 refused")
	}
	if b.Acquire(ctx, 50, 10*time.Millisecond) {
		t.Fatal("60+50 of 100 accepted")
	}
	if b.Acquire(ctx, 101, time.Second) {
		t.Fatal("a request larger than the whole budget accepted")
	}
	if got := b.Refused(); got != 2 {
		t.Fatalf("refused = %d, want 2", got)
	}
	b.Release(60)
	if !b.Acquire(ctx, 100, 0) || b.InUse() != 100 || b.Peak() != 100 {
		t.Fatalf("after release: in use %d, peak %d", b.InUse(), b.Peak())
	}
}

func TestBudget_WaitsForRelease(t *testing.T) {
	b := New(10)
	ctx := context.Background()
	b.Acquire(ctx, 10, 0)
	go func() { b.Release(10) }()
	if !b.Acquire(ctx, 10, 10*time.Second) {
		t.Fatal("a release during the wait did not admit the request")
	}
}

func TestAccount_GrowsAndReleases(t *testing.T) {
	b := New(10)
	a := b.NewAccount(context.Background(), 0)
	if !a.Grow(6) || a.Grow(6) {
		t.Fatal("account growth not bounded by the budget")
	}
	a.Close()
	if b.InUse() != 0 {
		t.Fatalf("in use after close = %d", b.InUse())
	}
}

func TestNil_IsUnlimited(t *testing.T) {
	var b *Budget = New(0)
	if !b.Acquire(context.Background(), 1<<40, 0) || b.InUse() != 0 || b.Limit() != 0 {
		t.Fatal("nil budget is not unlimited")
	}
	b.NewAccount(context.Background(), 0).Close()
}
