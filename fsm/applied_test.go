package fsm

import (
	"context"
	"errors"
	"github.com/raftns/raftns/fsm/state"
	"strconv"
	"sync"
	"testing"
	"time"
)

// putAt is the log entry at index that sets key k to the index's number.
func putAt(t testing.TB, index uint64) Entry {
	return makeLog(t, index, PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: strconv.FormatUint(index, 10), HasValue: true})
}

// A waiter returns once the entry it waits for is applied, and then sees
// that entry's state and a generation the state before it never had; one
// waiting for a later entry stays until its context ends.
func TestFSM_WaitApplied_ReturnsOnceTheEntryIsApplied(t *testing.T) {
	f := New(testLogger(t))
	f.ApplyBatch([]Entry{putAt(t, 1), putAt(t, 2)})
	ctx := context.Background()
	if err := f.WaitApplied(ctx, 2); err != nil {
		t.Fatalf("WaitApplied(2) after applying 2: %v", err)
	}
	genBefore := f.Generation()

	done := make(chan error, 1)
	var sawValue string
	var sawGen uint64
	go func() {
		err := f.WaitApplied(ctx, 4)
		sawValue, _ = f.KV("n", "k")
		sawGen = f.Generation()
		done <- err
	}()
	f.ApplyBatch([]Entry{putAt(t, 3)})
	select {
	case err := <-done:
		t.Fatalf("WaitApplied(4) returned %v with only 3 applied", err)
	case <-time.After(20 * time.Millisecond):
	}
	f.ApplyBatch([]Entry{putAt(t, 4), {Index: 5}})
	if err := <-done; err != nil {
		t.Fatalf("WaitApplied(4): %v", err)
	}
	if sawValue != "4" && sawValue != "5" || sawGen == genBefore {
		t.Fatalf("after WaitApplied(4): value %q, generation %d (before %d); want entry 4's state and a new generation",
			sawValue, sawGen, genBefore)
	}

	short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	if err := f.WaitApplied(short, 9); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitApplied(9) with 5 applied = %v, want the context's deadline", err)
	}
}

// A restored snapshot releases the waiters for what it stands for.
func TestFSM_WaitApplied_RestoreReleasesWaiters(t *testing.T) {
	src := New(testLogger(t))
	src.ApplyBatch([]Entry{putAt(t, 1), putAt(t, 2), putAt(t, 3)})
	snap := snapshotBytes(t, src)

	dst := New(testLogger(t))
	done := make(chan error, 1)
	go func() { done <- dst.WaitApplied(context.Background(), 3) }()
	if err := restoreBytes(dst, snap); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WaitApplied(3) still waits after restoring a snapshot at 3")
	}
}

// Many waiters for many indexes, against entries applied one batch at a
// time: each returns only when its entry is applied and then reads its
// state, and none is left behind.
func TestFSM_WaitApplied_ManyWaitersUnderConcurrentApply(t *testing.T) {
	f := New(testLogger(t))
	const entries = 400
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, entries)
	for i := uint64(1); i <= entries; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.WaitApplied(ctx, i); err != nil {
				errs <- err
				return
			}
			v, _ := f.KV("n", "k")
			if got, _ := strconv.ParseUint(v, 10, 64); got < i {
				errs <- errors.New("waiter for " + strconv.FormatUint(i, 10) + " read the value of " + v)
			}
		}()
	}
	for i := uint64(1); i <= entries; i += 3 {
		f.ApplyBatch([]Entry{putAt(t, i), putAt(t, i+1), putAt(t, i+2)})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A store below the waited-for indexes wakes nobody, and one that reaches
// some of them wakes those only.
func TestAppliedIndex_StoreWakesOnlyTheWaitersItReaches(t *testing.T) {
	var a appliedIndex
	ctx := context.Background()
	done := map[uint64]chan error{}
	for _, i := range []uint64{5, 9} {
		ch := make(chan error, 1)
		done[i] = ch
		go func() { ch <- a.wait(ctx, i) }()
	}
	if err := pollUntil(func() bool { a.mu.Lock(); defer a.mu.Unlock(); return len(a.waiters) == 2 }); err != nil {
		t.Fatal("the waiters never registered")
	}
	for i := uint64(1); i < 5; i++ {
		a.Store(i)
	}
	a.mu.Lock()
	left, low := len(a.waiters), a.lowest.Load()
	a.mu.Unlock()
	if left != 2 || low != 5 {
		t.Fatalf("after stores below every wait: %d waiters, lowest %d; want 2 and 5", left, low)
	}
	a.Store(6)
	if err := <-done[5]; err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done[9]:
		t.Fatalf("waiter for 9 returned %v at 6", err)
	default:
	}
	a.Store(9)
	if err := <-done[9]; err != nil {
		t.Fatal(err)
	}
}

// pollUntil polls cond for up to 10 s.
func pollUntil(cond func() bool) error {
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return context.DeadlineExceeded
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}
