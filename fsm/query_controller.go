package fsm

import "github.com/raftns/raftns/fsm/state"

// ReplicaGroup returns a copy of the controller's record of a broker group.
func (f *FSM) ReplicaGroup(brokerName string) (state.ReplicaGroup, bool) {
	return read2(f, func(s *state.State) (state.ReplicaGroup, bool) { return s.ReplicaGroup(brokerName) })
}

// ReplicaGroups returns a copy of every broker group the controller knows,
// by broker name.
func (f *FSM) ReplicaGroups() []state.ReplicaGroup {
	return read(f, (*state.State).ReplicaGroups)
}
