package launch

import (
	"context"
	"fmt"
	"time"
)

// Poll calls cond at once and then on every tick of interval until it
// reports true (nil), returns an error (that error), ctx ends (ctx.Err()) or
// timeout passes (ErrTimeout, naming what was awaited).
func Poll(ctx context.Context, timeout, interval time.Duration, what string, cond func() (bool, error)) error {
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
