package fsm

import "github.com/raftns/raftns/fsm/state"

// Digest returns a SHA-256 over the whole replicated state in canonical
// order (the snapshot's records, without the applied index). Two members
// that applied the same log agree on it; tests use it to compare replicas.
func (f *FSM) Digest() [32]byte {
	return read(f, func(s *state.State) [32]byte { return s.Digest(false, false) })
}

// DigestWithoutAudit is Digest without the audit trail: what a command
// refused at apply must leave as it was, though the trail records the
// refusal.
func (f *FSM) DigestWithoutAudit() [32]byte {
	return read(f, func(s *state.State) [32]byte { return s.Digest(false, true) })
}
