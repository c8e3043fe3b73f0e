package fsm

import "github.com/raftns/raftns/fsm/state"

// MemberStanding returns the standing recorded for the member id.
func (f *FSM) MemberStanding(id string) (state.MemberStanding, bool) {
	return read2(f, func(s *state.State) (state.MemberStanding, bool) { return s.MemberStanding(id) })
}

// MemberStandings returns every recorded standing, sorted by id.
func (f *FSM) MemberStandings() []state.MemberStanding {
	return read(f, (*state.State).MemberStandings)
}
