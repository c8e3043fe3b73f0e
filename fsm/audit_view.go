package fsm

import "github.com/raftns/raftns/fsm/state"

// publishAudit makes the trail of the current state what queries read.
// The caller holds mu for writing.
func (f *FSM) publishAudit() {
	v := f.st.AuditView()
	f.trail.Store(&v)
}

// view returns the newest published view of the trail.
func (f *FSM) view() *state.AuditView {
	if v := f.trail.Load(); v != nil {
		return v
	}
	return &state.AuditView{}
}
