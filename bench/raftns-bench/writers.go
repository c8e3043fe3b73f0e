package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// writers register brokers in closed loops and record, once a kill time is
// marked, the first success of a request sent after it.
type writers struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex
	killAt     time.Time
	ok         int
	failedPost int
	firstAfter time.Time
	lastErr    error
	progress   chan struct{}
	// afterKill lists every registration sent up to a second before the
	// kill mark or later, as it completed.
	afterKill []completion
}

// completion is one finished registration.
type completion struct {
	sent, done time.Time
	err        error
}

// startWriters starts count brokers of group registering through addr in
// closed loops, each with a new DataVersion every time and timeout per
// registration.
func startWriters(ctx context.Context, e *env, n naming, addr, group string, count int, timeout time.Duration) *writers {
	ctx, cancel := context.WithCancel(ctx)
	w := &writers{cancel: cancel, progress: make(chan struct{}, 1)}
	for i := range count {
		reg := n.broker(group, i, topicConfigs(n.topics(fmt.Sprintf("%s-%d", group, i), 4), 4))
		c := e.newClient()
		w.wg.Go(func() {
			defer c.Close()
			for ctx.Err() == nil {
				bump(reg)
				sent := time.Now()
				rctx, rcancel := context.WithTimeout(ctx, timeout)
				_, err := c.RegisterBroker(rctx, addr, reg)
				rcancel()
				w.record(sent, time.Now(), err)
				if err != nil && ctx.Err() == nil {
					time.Sleep(10 * time.Millisecond) // do not spin on a refused connection
				}
			}
		})
	}
	return w
}

func (w *writers) record(sent, done time.Time, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	after := !w.killAt.IsZero() && !sent.Before(w.killAt)
	if !w.killAt.IsZero() && sent.After(w.killAt.Add(-time.Second)) {
		w.afterKill = append(w.afterKill, completion{sent, done, err})
	}
	switch {
	case err != nil && after:
		w.failedPost++
		w.lastErr = err
	case err != nil:
		w.lastErr = err
	default:
		w.ok++
		if after && (w.firstAfter.IsZero() || done.Before(w.firstAfter)) {
			w.firstAfter = done
		}
	}
	select {
	case w.progress <- struct{}{}:
	default:
	}
}

func (w *writers) markKill(at time.Time) {
	w.mu.Lock()
	w.killAt = at
	w.mu.Unlock()
}

func (w *writers) successes() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ok
}

func (w *writers) failuresAfterKill() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failedPost
}

// waitSuccesses lets the writers run for settle and fails when none of
// their registrations succeeded by then.
func (w *writers) waitSuccesses(ctx context.Context, settle time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(settle):
	}
	return launch.Poll(ctx, readyTimeout, 10*time.Millisecond, "a first successful registration", func() (bool, error) { return w.successes() > 0, nil })
}

// waitFirstAfterKill waits for a success sent after the kill.
func (w *writers) waitFirstAfterKill(ctx context.Context, timeout time.Duration) (time.Time, error) {
	var first time.Time
	err := launch.Poll(ctx, timeout, 5*time.Millisecond, "a successful registration after the kill", func() (bool, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		first = w.firstAfter
		return !first.IsZero(), nil
	})
	if errors.Is(err, launch.ErrTimeout) {
		w.mu.Lock()
		err = fmt.Errorf("%w (last error: %v)", err, w.lastErr)
		w.mu.Unlock()
	}
	return first, err
}

// finished returns the registrations sent from a second before the kill
// mark on, as they completed.
func (w *writers) finished() []completion {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.afterKill)
}

func (w *writers) stop() {
	w.cancel()
	w.wg.Wait()
}
