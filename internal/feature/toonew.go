package feature

import (
	"errors"
	"fmt"

	"github.com/raftns/raftns/internal/buildinfo"
)

// ErrTooNew is what TooNewError matches with errors.Is.
var ErrTooNew = errors.New("written by a newer release")

// TooNewError refuses a log entry, snapshot record or RPC this build does
// not know, naming this build's release and the one it needs.
type TooNewError struct {
	// What names the thing refused, e.g. "log entry 812 (type 99)".
	What string
	// Needs is the release the sender said it needs; empty when the
	// sender did not say.
	Needs string
}

func (e *TooNewError) Error() string {
	needs := "a newer release"
	if e.Needs != "" {
		needs = "release " + e.Needs + " or newer"
	}
	return fmt.Sprintf("%s is unknown to this member's release %s; it needs %s: upgrade this member to %s "+
		"(docs/operators/operations.md, \"Upgrading\")", e.What, buildinfo.Release, needs, needs)
}

// Is makes errors.Is(err, ErrTooNew) true.
func (e *TooNewError) Is(target error) bool { return target == ErrTooNew }
