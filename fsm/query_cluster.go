package fsm

import "slices"

// ClusterInfo answers GET_BROKER_CLUSTER_INFO: every group by name and every
// cluster's broker names, sorted.
func (f *FSM) ClusterInfo() ClusterInfo {
	return read(f, func(s *state) ClusterInfo {
		ci := ClusterInfo{
			BrokerAddrTable:  make(map[string]BrokerData, len(s.brokers)),
			ClusterAddrTable: make(map[string][]string, len(s.clusters)),
		}
		for name, g := range s.brokers {
			ci.BrokerAddrTable[name] = cloneBrokerData(g.data)
		}
		for cluster, names := range s.clusters {
			ci.ClusterAddrTable[cluster] = sortedKeys(names.m)
		}
		return ci
	})
}

// BrokerMemberGroup answers GET_BROKER_MEMBER_GROUP: cluster and brokerName
// echoed, and a copy of the group's addresses (empty, never nil, when the
// group is unknown). Only brokerName is looked up, as in the reference.
func (f *FSM) BrokerMemberGroup(cluster, brokerName string) BrokerMemberGroup {
	return read(f, func(s *state) BrokerMemberGroup {
		g := BrokerMemberGroup{Cluster: cluster, BrokerName: brokerName, BrokerAddrs: map[int64]string{}}
		if bg, ok := s.brokers[brokerName]; ok {
			g.BrokerAddrs = cloneAddrs(bg.data.BrokerAddrs)
		}
		return g
	})
}

// Registration returns the live entry of a broker.
func (f *FSM) Registration(key BrokerKey) (BrokerRegistration, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	reg, ok := f.st.regs[key]
	return reg, ok
}

// Registrations returns every live entry sorted by key (cluster, address).
func (f *FSM) Registrations() []BrokerRegistration {
	return read(f, func(s *state) []BrokerRegistration {
		out := make([]BrokerRegistration, 0, len(s.regs))
		for _, key := range sortedBrokerKeys(s.regs) {
			out = append(out, s.regs[key])
		}
		return out
	})
}

// Members returns the member directory sorted by id.
func (f *FSM) Members() []Member {
	return read(f, func(s *state) []Member {
		out := make([]Member, 0, len(s.members))
		for _, id := range sortedKeys(s.members) {
			out = append(out, s.members[id])
		}
		return out
	})
}

// Counts returns the number of registered brokers (live entries) and of
// topics with queue data.
func (f *FSM) Counts() (brokers, topics int) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.st.regs), len(f.st.topics)
}

// FilterServers returns the filter-server list a broker registered.
func (f *FSM) FilterServers(key BrokerKey) ([]string, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	l, ok := f.st.filters[key]
	return slices.Clone(l), ok
}
