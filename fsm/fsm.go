package fsm

import (
	"sync"
	"sync/atomic"

	"github.com/raftns/raftns/fsm/state"

	"github.com/hashicorp/go-hclog"
)

// FSM is the replicated state machine of a RaftNS member. Raft calls Apply,
// ApplyBatch, Snapshot and Restore (through package cluster's adapter) from
// one goroutine; the read methods may be called from any goroutine at any
// time and return copies.
type FSM struct {
	logger hclog.Logger
	// observer hears about broker changes; set before Raft starts.
	observer Observer
	// audited hears about audit records, changeObserver about every
	// change; both are set before Raft starts.
	audited        func(state.AuditRecord)
	changeObserver ChangeObserver
	// settingsObservers hear about run-time settings (settings.go).
	settingsObservers []SettingsObserver

	// mu guards st. Applies hold it for writing, reads for reading; a
	// snapshot only freezes st under it and streams without it.
	mu sync.RWMutex
	st *state.State
	// trail is the audit trail queries read without mu (audit_view.go).
	trail atomic.Pointer[state.AuditView]

	applied appliedIndex // last log index handed to the FSM
	// expected are entries this member proposes, already decoded
	// (proposal.go).
	expected expectations
	gen      atomic.Uint64 // bumped on every observable change
	// restores counts snapshots restored; restoredIndex is the applied
	// index the last one stood for.
	restores      atomic.Uint64
	restoredIndex atomic.Uint64
	// halt is set when an entry cannot be applied (halt.go).
	halt halt
}

// New returns an empty FSM. A nil logger discards logs.
func New(logger hclog.Logger) *FSM {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &FSM{logger: logger, st: state.New()}
}

// AppliedIndex returns the index of the last log entry the FSM has applied,
// configuration and other non-command entries included, or the index of the
// restored snapshot.
func (f *FSM) AppliedIndex() uint64 { return f.applied.Load() }

// Generation returns a counter that changes whenever anything a read can
// observe changes (route tables, registrations, KV, members, a restore).
// Caches of encoded answers compare it to know they are stale.
func (f *FSM) Generation() uint64 { return f.gen.Load() }

// LastChangeIndex returns the log index of the last entry that changed the
// state.
func (f *FSM) LastChangeIndex() uint64 {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.st.LastChange()
}

// writableLocked returns the current state, thawing it first when a snapshot
// froze it. The caller holds mu for writing.
func (f *FSM) writableLocked() *state.State {
	f.st = f.st.Writable()
	return f.st
}

// read runs fn on the current state under the read lock.
func read[T any](f *FSM, fn func(*state.State) T) T {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return fn(f.st)
}

// read2 is read for a function of two results.
func read2[A, B any](f *FSM, fn func(*state.State) (A, B)) (A, B) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return fn(f.st)
}
