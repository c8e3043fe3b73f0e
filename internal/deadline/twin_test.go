package deadline

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

type ctxKey struct{}

// observation is what a caller can see of a context at one moment.
type observation struct {
	err      error
	done     bool
	value    any
	deadline time.Time
}

func observe(ctx context.Context) observation {
	o := observation{err: ctx.Err(), value: ctx.Value(ctxKey{})}
	select {
	case <-ctx.Done():
		o.done = true
	default:
	}
	o.deadline, _ = ctx.Deadline()
	return o
}

// TestWithTimeout_BehavesAsContextWithTimeout runs the same steps on
// WithTimeout and on context.WithTimeout and compares what a caller sees
// after each: the error, whether Done is closed, a parent's value, and the
// deadline (to within the two calls' distance).
func TestWithTimeout_BehavesAsContextWithTimeout(t *testing.T) {
	type twin = func(context.Context, time.Duration) (context.Context, context.CancelFunc)
	cases := []struct {
		name    string
		timeout time.Duration
		// lookFirst observes the context before step, which arms
		// WithTimeout's timer; without it step meets an unarmed one.
		lookFirst bool
		// step acts between observations: cancel the context, cancel the
		// parent, or wait until the context is done.
		step func(t *testing.T, ctx context.Context, cancel, cancelParent context.CancelFunc)
	}{
		{"cancelled", time.Hour, true, func(_ *testing.T, _ context.Context, cancel, _ context.CancelFunc) { cancel() }},
		{"cancelled unwatched", time.Hour, false, func(_ *testing.T, _ context.Context, cancel, _ context.CancelFunc) { cancel() }},
		{"parent cancelled unwatched", time.Hour, false, func(_ *testing.T, _ context.Context, _, cancelParent context.CancelFunc) { cancelParent() }},
		{"parent cancelled", time.Hour, true, func(_ *testing.T, _ context.Context, _, cancelParent context.CancelFunc) { cancelParent() }},
		{"deadline passed", 20 * time.Millisecond, false, func(t *testing.T, ctx context.Context, _, _ context.CancelFunc) {
			poll.For(t, 10*time.Second, "the deadline", func() bool { return ctx.Err() != nil })
		}},
		{"cancelled after the deadline", 20 * time.Millisecond, true, func(t *testing.T, ctx context.Context, cancel, _ context.CancelFunc) {
			poll.For(t, 10*time.Second, "the deadline", func() bool { return ctx.Err() != nil })
			cancel()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var seen [2][]observation
			for i, with := range []twin{context.WithTimeout, WithTimeout} {
				parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
				ctx, cancel := with(parent, tc.timeout)
				if tc.lookFirst {
					seen[i] = append(seen[i], observe(ctx))
				}
				tc.step(t, ctx, cancel, cancelParent)
				seen[i] = append(seen[i], observe(ctx))
				cancel()
				cancelParent()
				seen[i] = append(seen[i], observe(ctx))
			}
			for j := range seen[0] {
				std, lazy := seen[0][j], seen[1][j]
				if !errors.Is(lazy.err, std.err) || lazy.done != std.done || lazy.value != std.value {
					t.Fatalf("observation %d: WithTimeout saw err %v done %v value %v; context.WithTimeout err %v done %v value %v",
						j, lazy.err, lazy.done, lazy.value, std.err, std.done, std.value)
				}
				if d := lazy.deadline.Sub(std.deadline); d < 0 || d > time.Second {
					t.Fatalf("observation %d: deadline %v after context.WithTimeout's, want it within the calls' distance", j, d)
				}
			}
		})
	}
}
