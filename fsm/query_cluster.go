package fsm

import (
	"github.com/raftns/raftns/fsm/state"
)

// ClusterInfo answers GET_BROKER_CLUSTER_INFO: every group by name and every
// cluster's broker names, sorted.
func (f *FSM) ClusterInfo() state.ClusterInfo {
	return read(f, (*state.State).ClusterInfo)
}

// BrokerMemberGroup answers GET_BROKER_MEMBER_GROUP: cluster and brokerName
// echoed, and a copy of the group's addresses (empty, never nil, when the
// group is unknown). Only brokerName is looked up, as in the reference.
func (f *FSM) BrokerMemberGroup(cluster, brokerName string) state.BrokerMemberGroup {
	return read(f, func(s *state.State) state.BrokerMemberGroup { return s.BrokerMemberGroup(cluster, brokerName) })
}

// Registration returns the live entry of a broker.
func (f *FSM) Registration(key state.BrokerKey) (state.BrokerRegistration, bool) {
	return read2(f, func(s *state.State) (state.BrokerRegistration, bool) { return s.Registration(key) })
}

// Registrations returns every live entry sorted by key (cluster, address).
func (f *FSM) Registrations() []state.BrokerRegistration {
	return read(f, (*state.State).Registrations)
}

// Members returns the member directory sorted by id.
func (f *FSM) Members() []state.Member {
	return read(f, (*state.State).Members)
}

// Counts returns the number of registered brokers (live entries) and of
// topics with queue data.
func (f *FSM) Counts() (brokers, topics int) {
	return read2(f, (*state.State).Counts)
}

// FilterServers returns the filter-server list a broker registered.
func (f *FSM) FilterServers(key state.BrokerKey) ([]string, bool) {
	return read2(f, func(s *state.State) ([]string, bool) { return s.FilterServers(key) })
}
