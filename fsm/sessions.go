package fsm

import "github.com/raftns/raftns/fsm/state"

// Sessions returns the number of sessions in the table, for status and
// tests.
func (f *FSM) Sessions() int {
	return read(f, (*state.State).Sessions)
}
