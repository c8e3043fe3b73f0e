package fsm

import (
	"sync"
	"sync/atomic"

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
	audited        func(AuditRecord)
	changeObserver ChangeObserver

	// mu guards st. Applies hold it for writing, reads for reading; a
	// snapshot only freezes st under it and streams without it.
	mu sync.RWMutex
	st *state
	// trail is the audit trail queries read without mu (audit_view.go).
	trail atomic.Pointer[auditView]

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
	return &FSM{logger: logger, st: newState()}
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
	return f.st.lastChange
}

// writableLocked returns the current state, thawing it first when a snapshot
// froze it. The caller holds mu for writing.
func (f *FSM) writableLocked() *state {
	if f.st.frozen {
		f.st = f.st.thaw()
	}
	return f.st
}

// read runs fn on the current state under the read lock.
func read[T any](f *FSM, fn func(*state) T) T {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return fn(f.st)
}
