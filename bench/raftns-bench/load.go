package main

import (
	"context"
	"sync"
	"time"
)

// workerResult is what one closed-loop worker measured.
type workerResult struct {
	lat      []time.Duration
	errors   int
	firstErr error
}

// loadPhase runs op in a closed loop on each of workers goroutines until
// the phase ends. Operations that start before warmup has passed are not
// recorded; the measured window is [start+warmup, end). With pace set a
// worker starts its k-th operation no earlier than start + k*pace (a fixed
// offered rate of workers/pace, late ones catching up at once); latency is
// counted from the operation's start.
type loadPhase struct {
	workers  int
	warmup   time.Duration
	duration time.Duration
	pace     time.Duration
}

// loadOutcome merges the workers' results.
type loadOutcome struct {
	workers  []workerResult
	elapsed  time.Duration // measured window
	lat      []time.Duration
	errors   int
	firstErr error
}

// run executes the phase; op gets the worker index.
func (p loadPhase) run(ctx context.Context, op func(ctx context.Context, worker int) error) loadOutcome {
	start := time.Now()
	measureFrom, end := start.Add(p.warmup), start.Add(p.warmup+p.duration)
	results := make([]workerResult, p.workers)
	var wg sync.WaitGroup
	for w := range p.workers {
		wg.Go(func() {
			res := &results[w]
			// Workers' slots are spread over one pace.
			slot := start.Add(p.pace * time.Duration(w) / time.Duration(p.workers))
			for ctx.Err() == nil {
				if p.pace > 0 {
					if sleepUntil(ctx, slot) != nil {
						return
					}
					slot = slot.Add(p.pace)
				}
				t0 := time.Now()
				if !t0.Before(end) {
					return
				}
				err := op(ctx, w)
				if t0.Before(measureFrom) {
					continue
				}
				if err != nil {
					res.errors++
					if res.firstErr == nil {
						res.firstErr = err
					}
					continue
				}
				res.lat = append(res.lat, time.Since(t0))
			}
		})
	}
	wg.Wait()
	out := loadOutcome{workers: results, elapsed: min(time.Since(measureFrom), p.duration)}
	for _, r := range results {
		out.lat = append(out.lat, r.lat...)
		out.errors += r.errors
		if out.firstErr == nil {
			out.firstErr = r.firstErr
		}
	}
	return out
}

// sleepUntil waits until t or until ctx ends.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	return sleepCtx(ctx, d)
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
