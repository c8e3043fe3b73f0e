package launch

import (
	"errors"

	"github.com/raftns/raftns/internal/poll"
)

var (
	// ErrTimeout is returned by Poll when its condition did not come true
	// before the deadline.
	ErrTimeout = poll.ErrTimeout
	// ErrExited is returned by WaitReady when the process ended before it
	// became ready.
	ErrExited = errors.New("launch: process exited")
	// ErrRunning is returned by Launch and Start while the previous process
	// still runs.
	ErrRunning = errors.New("launch: already running")
	// ErrStillRunning is returned by Terminate when the process outlived its
	// grace period after SIGTERM.
	ErrStillRunning = errors.New("launch: still running after SIGTERM")
	// ErrNoHTTPAddr is returned by the HTTP methods of a member whose admin
	// address is unknown.
	ErrNoHTTPAddr = errors.New("launch: admin HTTP address unknown")
)
