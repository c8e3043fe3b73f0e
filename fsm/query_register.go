package fsm

import "github.com/raftns/raftns/fsm/state"

// WouldChange reports whether applying cmd now would change any replicated
// state other than the registration's RegEpoch and RegisteredAtMillis:
// cluster set, group (new group, id -> address incl. the slave-to-master
// switch, zoneName, enableActingMaster), live entry (new broker, HA address,
// DataVersion, heartbeat timeout), filter servers, queue data (including
// topics that lack QueueData for this broker) and mapping infos. A false
// answer lets the server treat the registration as a heartbeat that writes
// no log entry. It is computed from the same plan Apply executes.
func (f *FSM) WouldChange(cmd *state.RegisterBroker) bool {
	return read(f, func(s *state.State) bool { return s.WouldChange(cmd) })
}

// RegisterResult returns the answer Apply would give cmd against the current
// state, without applying it.
func (f *FSM) RegisterResult(cmd *state.RegisterBroker) state.RegisterResult {
	return read(f, func(s *state.State) state.RegisterResult { return s.RegisterResultOf(cmd) })
}
