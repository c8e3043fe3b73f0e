package fsm

// AuditRecords answers q from this member's trail. It reads the newest
// published view of the trail and holds no lock while it scans, and it
// examines at most MaxAuditScan records.
func (f *FSM) AuditRecords(q AuditQuery) AuditPage {
	return f.view().Query(q, MaxAuditScan)
}

// LastAuditIndex returns the index of the newest audit record, 0 when the
// trail is empty.
func (f *FSM) LastAuditIndex() uint64 { return f.view().LastIndex() }
