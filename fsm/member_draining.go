package fsm

import "github.com/raftns/raftns/fsm/state"

// DrainingMembers returns the members being drained, sorted by id.
func (f *FSM) DrainingMembers() []state.DrainingMember {
	return read(f, (*state.State).DrainingMembers)
}

// Draining reports whether the member id is being drained, and how.
func (f *FSM) Draining(id string) (state.DrainingMember, bool) {
	return read2(f, func(s *state.State) (state.DrainingMember, bool) { return s.Draining(id) })
}
