package fsm

import (
	"fmt"
	"io"

	"github.com/raftns/raftns/fsm/state"
)

// Restore replaces the state with a snapshot. It builds the new state
// completely and verifies the snapshot's checksum before swapping it in under
// the lock; a damaged, unknown-version or inconsistent snapshot returns an
// error and leaves the current state untouched.
func (f *FSM) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	st, meta, err := state.Read(rc)
	if err != nil {
		f.logger.Error("snapshot restore failed, state unchanged", "error", err)
		return fmt.Errorf("fsm: restore snapshot: %w", err)
	}
	f.mu.Lock()
	f.st = st
	f.publishAudit()
	f.gen.Add(1)
	f.applied.Store(meta.AppliedIndex)
	f.restoredIndex.Store(meta.AppliedIndex)
	f.restores.Add(1)
	if f.changeObserver != nil {
		f.changeObserver.Changed(meta.AppliedIndex, nil, st.AuditTotal() > 0)
	}
	f.tellSettings(st, "")
	f.mu.Unlock()
	brokers, topics := st.Counts()
	f.logger.Info("snapshot restored", "index", meta.AppliedIndex, "brokers", brokers, "topics", topics)
	return nil
}

// Restores returns how many snapshots this FSM has restored (the member's
// own at start, the leader's when the member was further behind than the
// leader's log reaches, an operator's restore) and the applied index the
// last of them stood for.
func (f *FSM) Restores() (count, lastIndex uint64) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.restores.Load(), f.restoredIndex.Load()
}
