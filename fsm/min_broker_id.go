package fsm

import (
	"github.com/raftns/raftns/fsm/state"
)

// PendingMinBrokerIDNotices returns the notices not yet acknowledged, by
// broker name.
func (f *FSM) PendingMinBrokerIDNotices() []state.MinBrokerIDNotice {
	return read(f, (*state.State).PendingMinBrokerIDNotices)
}
