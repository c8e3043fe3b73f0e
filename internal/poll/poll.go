// Package poll waits for a condition with a deadline: the one polling helper
// of RaftNS's tests, multi-process harness and load generator (tests never
// sleep a fixed time to wait for something).
package poll

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrTimeout is returned by Until when its condition did not come true in
// time.
var ErrTimeout = errors.New("timed out")

// Until calls cond at once and then on every tick of interval until it
// reports true (nil), returns an error (that error), ctx ends (ctx.Err()) or
// timeout passes (ErrTimeout, naming what was awaited).
func Until(ctx context.Context, timeout, interval time.Duration, what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w after %v waiting for %s", ErrTimeout, timeout, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// testInterval is how often For checks its condition.
const testInterval = 10 * time.Millisecond

// TB is the part of testing.TB that For uses (this package stays free of
// the testing package, so that non-test code may use Until).
type TB interface {
	Helper()
	Fatal(args ...any)
}

// For fails the test unless cond comes true within timeout.
func For(t TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	if err := Until(context.Background(), timeout, testInterval, what, func() (bool, error) { return cond(), nil }); err != nil {
		t.Fatal(err)
	}
}

// Every calls f on every tick of interval until stop closes, and never
// after it closed; a tick that comes while f runs is dropped, so calls
// never overlap or pile up.
func Every(interval time.Duration, stop <-chan struct{}, f func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		select {
		case <-stop:
			return
		default:
			f()
		}
	}
}

// Sleep waits d, or less if stop closes first; it reports whether the whole
// d passed.
func Sleep(d time.Duration, stop <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-stop:
		return false
	}
}
