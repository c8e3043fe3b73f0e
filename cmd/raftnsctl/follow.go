package main

import (
	"context"
	"errors"
)

// followEnded turns the end of a follow command (watch, audit --follow)
// by an interrupt into success: Ctrl-C is how such a command is meant to
// stop. Any other error is returned as it is.
func followEnded(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil
	}
	return err
}
