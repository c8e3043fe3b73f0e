package fsm

import (
	"cmp"
	"errors"

	"github.com/raftns/raftns/fsm/state"
)

// Entry is one committed Raft log entry as the FSM applies it.
type Entry struct {
	Index uint64
	// Command is false for an entry Raft keeps for itself (configuration,
	// no-op, barrier): it only advances AppliedIndex.
	Command bool
	Data    []byte
}

// Apply applies one committed log entry and returns the response the
// proposer receives, as the command's description says (RegisterResult for
// RegisterBroker, WritePermResult for Wipe/AddWritePerm, nil otherwise). An entry that does not decode, or whose
// type is unknown without IgnoreUnknownTypeFlag, halts the FSM (halt.go):
// a replica that skipped it would diverge.
func (f *FSM) Apply(e Entry) any {
	return f.ApplyBatch([]Entry{e})[0]
}

// ApplyBatch applies committed entries in order. Entries that are not
// commands (configuration, no-op, barrier) yield nil but still advance
// AppliedIndex. The entries are decoded before any lock is taken, and each
// entry is applied under a write lock of its own: a batch of large
// registrations would otherwise keep every read waiting for all of them
// (Raft hands over up to 64 entries at once when the FSM falls behind), while
// a read between two entries sees a state that some prefix of the log made,
// as it would between two batches, and the applied index names that prefix.
// An entry this member proposed with Expect is not decoded again.
func (f *FSM) ApplyBatch(logs []Entry) []any {
	out := make([]any, len(logs))
	decoded := make([]decodedEntry, len(logs))
	for i, l := range logs {
		if !l.Command {
			continue
		}
		var ok bool
		if decoded[i], ok = f.expectedEntry(l.Data); !ok {
			decoded[i] = decodeEntry(l.Data)
		}
	}
	var halted error
	defer func() { f.notifyHalt(halted) }()
	for i, l := range logs {
		var h error
		out[i], h = f.applyEntry(l, decoded[i])
		halted = cmp.Or(halted, h)
	}
	return out
}

// applyEntry applies one entry under the write lock and returns its answer,
// and the error to tell the halt hook when the entry halts the FSM. The
// generation moves before the applied index, both before the lock is
// released: whoever sees the index applied finds no cached answer of the
// state before it (WaitApplied), and the state read under the lock is the
// one the applied index names.
func (f *FSM) applyEntry(l Entry, d decodedEntry) (out any, halted error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.halt.halted.Load() {
		return ErrHalted, nil
	}
	if l.Command {
		if err := d.err; err != nil && !skippable(d) {
			return ErrHalted, f.haltOn(l, d)
		}
		var changed bool
		if out, changed = f.applyCommandLocked(l, d); changed {
			f.gen.Add(1)
		}
	}
	if l.Index != 0 {
		f.applied.Store(l.Index)
	}
	return out, nil
}

// skippable reports an entry of a type this build does not know that its
// proposer marked as safe to skip (IgnoreUnknownTypeFlag).
func skippable(e decodedEntry) bool {
	return errors.Is(e.err, ErrUnknownCommandType) && e.t&IgnoreUnknownTypeFlag != 0
}

// applyCommandLocked applies one decoded command entry. An entry with a
// RequestID is applied at most once per request (state/sessions.go).
func (f *FSM) applyCommandLocked(l Entry, e decodedEntry) (any, bool) {
	t, cmd, id := e.t, e.cmd, e.id
	if skippable(e) {
		f.logger.Warn("skipping unknown command type", "type", uint8(t), "index", l.Index)
		return nil, false
	}
	s := f.writableLocked()
	if e.identified {
		switch verdict, cached := s.CheckRequest(id); verdict {
		case state.RequestDuplicate:
			return f.answerAgain(s, t, cmd, cached), false
		case state.RequestSuperseded:
			return ErrSuperseded, false
		}
	}
	var subject state.AuditRecord
	if e.stamp != nil {
		subject = s.AuditSubject(cmd)
	}
	res, changed := f.dispatch(s, t, cmd, l.Index)
	if changed {
		s.MarkChanged(l.Index)
	}
	if e.stamp != nil {
		rec := s.AuditEntry(l.Index, e.stamp, subject, res, changed)
		f.publishAudit()
		if f.audited != nil {
			f.audited(rec)
		}
	}
	if (changed || e.stamp != nil) && f.changeObserver != nil {
		f.changeObserver.Changed(l.Index, cmd, e.stamp != nil)
	}
	if e.identified {
		// EncodeResult fails only for an answer of the wrong type, which
		// the registry rules out; a missing answer is recomputed.
		enc, _ := EncodeResult(t, res)
		s.RecordRequest(id, enc, l.Index)
	}
	return res, changed
}

// answerAgain is the answer to a duplicate of an applied request: the one
// kept, else (an answer too large to keep) the one the current state gives.
func (f *FSM) answerAgain(s *state.State, t CommandType, cmd any, cached []byte) any {
	if res, err := DecodeResult(t, cached); err == nil && res != nil {
		return res
	}
	if reg, ok := cmd.(*state.RegisterBroker); ok {
		return s.RegisterResultOf(reg)
	}
	return nil
}

// dispatch calls the apply function of a decoded command; it reports
// whether the state changed. Decode only returns registered commands, and
// every registered command has an apply function (newRegistry checks).
func (f *FSM) dispatch(s *state.State, t CommandType, cmd any, index uint64) (any, bool) {
	return commands.lookup(t).apply(f, s, cmd, index)
}
