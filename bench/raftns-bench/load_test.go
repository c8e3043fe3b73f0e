package main

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestLoadPhase_RecordsSuccessesAndErrorsAfterWarmup(t *testing.T) {
	var calls atomic.Int64
	boom := errors.New("boom")
	out := loadPhase{workers: 2, warmup: 50 * time.Millisecond, duration: 100 * time.Millisecond}.run(context.Background(),
		func(_ context.Context, w int) error {
			calls.Add(1)
			time.Sleep(time.Millisecond)
			if w == 1 {
				return boom
			}
			return nil
		})
	if len(out.lat) == 0 || out.errors == 0 {
		t.Fatalf("recorded %d successes and %d errors, want both > 0", len(out.lat), out.errors)
	}
	if !errors.Is(out.firstErr, boom) {
		t.Fatalf("firstErr = %v, want boom", out.firstErr)
	}
	if int64(len(out.lat)+out.errors) >= calls.Load() {
		t.Fatalf("%d recorded of %d calls: warm-up calls were recorded", len(out.lat)+out.errors, calls.Load())
	}
	if len(out.workers[1].lat) != 0 || out.workers[0].errors != 0 {
		t.Fatalf("results mixed up between workers: %+v", out.workers)
	}
	if out.elapsed <= 0 || out.elapsed > 100*time.Millisecond {
		t.Fatalf("elapsed = %v, want the measured window (0, 100ms]", out.elapsed)
	}
}

func TestLoadPhase_StopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan loadOutcome)
	go func() {
		done <- loadPhase{workers: 1, duration: time.Hour}.run(ctx, func(context.Context, int) error { return nil })
	}()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("load phase did not stop after its context was cancelled")
	}
}

// A paced phase offers workers/pace operations a second however fast they
// are answered: 2 workers every 50 ms over 200 ms start at most 2*(4+1).
func TestLoadPhase_PaceBoundsTheOfferedRate(t *testing.T) {
	var calls atomic.Int64
	out := loadPhase{workers: 2, duration: 200 * time.Millisecond, pace: 50 * time.Millisecond}.run(context.Background(),
		func(context.Context, int) error {
			calls.Add(1)
			return nil
		})
	if n := calls.Load(); n == 0 || n > 10 || len(out.lat) != int(n) {
		t.Fatalf("%d calls, %d recorded; want 1 to 10, all recorded", n, len(out.lat))
	}
}
