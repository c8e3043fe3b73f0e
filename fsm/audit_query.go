package fsm

import "github.com/raftns/raftns/fsm/state"

// AuditRecords answers q from this member's trail. It reads the newest
// published view of the trail and holds no lock while it scans, and it
// examines at most MaxAuditScan records.
func (f *FSM) AuditRecords(q state.AuditQuery) state.AuditPage {
	return f.view().Query(q, state.MaxAuditScan)
}

// LastAuditIndex returns the index of the newest audit record, 0 when the
// trail is empty.
func (f *FSM) LastAuditIndex() uint64 { return f.view().LastIndex() }
