package state

import "slices"

// ClusterInfo answers GET_BROKER_CLUSTER_INFO: every group by name and every
// cluster's broker names, sorted.
func (s *State) ClusterInfo() ClusterInfo {
	ci := ClusterInfo{
		BrokerAddrTable:  make(map[string]BrokerData, len(s.brokers())),
		ClusterAddrTable: make(map[string][]string, len(s.clusters())),
	}
	for name, g := range s.brokers() {
		ci.BrokerAddrTable[name] = cloneBrokerData(g.data)
	}
	for cluster, names := range s.clusters() {
		ci.ClusterAddrTable[cluster] = sortedKeys(names.m)
	}
	return ci
}

// BrokerMemberGroup answers GET_BROKER_MEMBER_GROUP: cluster and brokerName
// echoed, and a copy of the group's addresses (empty, never nil, when the
// group is unknown). Only brokerName is looked up, as in the reference.
func (s *State) BrokerMemberGroup(cluster, brokerName string) BrokerMemberGroup {
	g := BrokerMemberGroup{Cluster: cluster, BrokerName: brokerName, BrokerAddrs: map[int64]string{}}
	if bg, ok := s.brokers()[brokerName]; ok {
		g.BrokerAddrs = cloneAddrs(bg.data.BrokerAddrs)
	}
	return g
}

// Registration returns the live entry of a broker.
func (s *State) Registration(key BrokerKey) (BrokerRegistration, bool) {
	reg, ok := s.regs()[key]
	return reg, ok
}

// Registrations returns every live entry sorted by key (cluster, address).
func (s *State) Registrations() []BrokerRegistration {
	out := make([]BrokerRegistration, 0, len(s.regs()))
	for _, key := range sortedBrokerKeys(s.regs()) {
		out = append(out, s.regs()[key])
	}
	return out
}

// Members returns the member directory sorted by id.
func (s *State) Members() []Member {
	out := make([]Member, 0, len(s.members()))
	for _, id := range sortedKeys(s.members()) {
		out = append(out, s.members()[id])
	}
	return out
}

// Counts returns the number of registered brokers (live entries) and of
// topics with queue data.
func (s *State) Counts() (brokers, topics int) {
	return len(s.regs()), len(s.topics())
}

// FilterServers returns the filter-server list a broker registered.
func (s *State) FilterServers(key BrokerKey) ([]string, bool) {
	l, ok := s.filters()[key]
	return slices.Clone(l), ok
}
