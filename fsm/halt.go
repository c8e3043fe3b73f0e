package fsm

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/raftns/raftns/internal/feature"
)

// ErrHalted answers every entry after the FSM met one it cannot apply: a
// replica that skipped it would differ from the others, so it applies
// nothing more (docs/operators/operations.md, "Upgrading").
var ErrHalted = errors.New("fsm: halted at a log entry this member cannot apply")

// halt holds the FSM's halted state.
type halt struct {
	halted atomic.Bool // err != nil, read on every apply
	mu     sync.Mutex
	err    error       // why it halted; nil while applying
	onHalt func(error) // called once, outside the FSM lock
}

// OnHalt sets fn, called once when the FSM halts, with an error naming
// the entry and, for an entry of a newer release, both releases
// (feature.TooNewError). The member's process stops there with a clear
// log line and a non-zero exit status; without fn the FSM only stays
// halted. Set it before Raft starts.
func (f *FSM) OnHalt(fn func(error)) {
	f.halt.mu.Lock()
	defer f.halt.mu.Unlock()
	f.halt.onHalt = fn
}

// Halted returns why the FSM halted, or nil.
func (f *FSM) Halted() error {
	f.halt.mu.Lock()
	defer f.halt.mu.Unlock()
	return f.halt.err
}

// haltOn records why entry l cannot be applied and returns the error to
// pass to the hook (once), or nil when the FSM had halted already.
func (f *FSM) haltOn(l Entry, e decodedEntry) error {
	err := e.err
	if errors.Is(err, ErrUnknownCommandType) {
		err = &feature.TooNewError{What: fmt.Sprintf("log entry %d (command type %d)", l.Index, uint8(e.t)), Needs: e.needs}
	} else {
		err = fmt.Errorf("fsm: cannot apply log entry %d (type %d): %w", l.Index, uint8(e.t), err)
	}
	f.halt.mu.Lock()
	defer f.halt.mu.Unlock()
	if f.halt.err != nil {
		return nil
	}
	f.halt.err = err
	f.halt.halted.Store(true)
	f.logger.Error("stopping: this member cannot apply a committed log entry and must not skip it; it applies nothing more",
		"index", l.Index, "error", err)
	return err
}

// notifyHalt calls the hook with err (nil: nothing new).
func (f *FSM) notifyHalt(err error) {
	if err == nil {
		return
	}
	f.halt.mu.Lock()
	fn := f.halt.onHalt
	f.halt.mu.Unlock()
	if fn != nil {
		fn(err)
	}
}
