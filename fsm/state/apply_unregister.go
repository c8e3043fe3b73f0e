package state

import (
	"maps"
	"slices"
)

// unregisterBatch ports RouteInfoManager.unRegisterBroker(Set), 5.x: per
// request drop the live and filter entries of (cluster, addr) and every id
// of the named group whose address matches; a group left empty is removed
// with its cluster membership, and then the queue data of removed groups is
// dropped and the write bit cleared for acting-master groups left without a
// master. Groups that lost their smallest id get a min-broker-id notice.
func (s *State) unregisterBatch(reqs []UnregisterBroker, index uint64) bool {
	changed := false
	var removed, reduced []string
	offline := map[string]string{}
	for _, r := range reqs {
		key := BrokerKey{Cluster: r.ClusterName, Addr: r.BrokerAddr}
		changed = s.dropLive(key) || changed
		wasMin := s.isMinID(r.BrokerName, r.BrokerID)
		gone, ch := s.removeAddr(r.BrokerName, r.BrokerAddr)
		changed = changed || ch
		if !gone {
			if wasMin {
				offline[r.BrokerName] = r.BrokerAddr
			}
			reduced = append(reduced, r.BrokerName)
			continue
		}
		delete(offline, r.BrokerName)
		delete(s.minIDNotices(), r.BrokerName)
		s.leaveCluster(r.ClusterName, r.BrokerName)
		removed = append(removed, r.BrokerName)
	}
	changed = s.noteLeaveMinID(offline, index) || changed
	return s.cleanTopics(removed, s.masterlessActing(reduced)) || changed
}

// isMinID reports whether id is the smallest id of group name.
func (s *State) isMinID(name string, id int64) bool {
	g, ok := s.brokers()[name]
	return ok && len(g.data.BrokerAddrs) > 0 && minID(g.data.BrokerAddrs) == id
}

// dropLive removes the live and filter-server entries of key.
func (s *State) dropLive(key BrokerKey) bool {
	_, hadReg := s.regs()[key]
	_, hadFilter := s.filters()[key]
	delete(s.regs(), key)
	delete(s.filters(), key)
	return hadReg || hadFilter
}

// removeAddr removes every id of group name whose address is addr and the
// group itself when it is left empty; gone reports the latter.
func (s *State) removeAddr(name, addr string) (gone, changed bool) {
	g, ok := s.brokers()[name]
	if !ok {
		return false, false
	}
	if slices.Contains(slices.Collect(maps.Values(g.data.BrokerAddrs)), addr) {
		maps.DeleteFunc(s.group(name).BrokerAddrs, func(_ int64, a string) bool { return a == addr })
		changed = true
	}
	if len(s.brokers()[name].data.BrokerAddrs) == 0 {
		delete(s.brokers(), name)
		return true, true
	}
	return false, changed
}

// leaveCluster removes name from the request's cluster set, and the cluster
// when its set becomes empty. As in the reference, the request's cluster is
// used even if the group was created in another one.
func (s *State) leaveCluster(cluster, name string) {
	if !s.inCluster(cluster, name) {
		return
	}
	set := writable(s, s.clusters(), cluster, false)
	delete(set.m, name)
	if len(set.m) == 0 {
		delete(s.clusters(), cluster)
	}
}

// masterlessActing returns the reduced groups whose queue data loses its
// write bit: acting-master groups with no id 0 left (isNoMasterExists). A
// name without a group is skipped (the reference would throw there).
func (s *State) masterlessActing(reduced []string) map[string]bool {
	out := map[string]bool{}
	for _, name := range reduced {
		g, ok := s.brokers()[name]
		if ok && g.data.EnableActingMaster && (len(g.data.BrokerAddrs) == 0 || minID(g.data.BrokerAddrs) > MasterID) {
			out[name] = true
		}
	}
	return out
}

// cleanTopics ports cleanTopicByUnRegisterRequests: drop the queue data of
// removed groups (and topics left empty), clear the write bit of the
// others. The reference walks every topic; the index walks only the
// topics of the named groups, the same changes.
func (s *State) cleanTopics(removed []string, wipe map[string]bool) bool {
	changed := false
	for _, name := range removed {
		for _, topic := range s.topicsOf(name) {
			changed = s.dropQueue(topic, name) || changed
		}
	}
	for name := range wipe {
		for _, topic := range s.topicsOf(name) {
			if qd, _ := s.Queue(topic, name); qd.Perm&PermWrite != 0 {
				qd.Perm &^= PermWrite
				writable(s, s.topics(), topic, false).m[name] = qd
				changed = true
			}
		}
	}
	return changed
}

// ApplyUnregisterBroker applies UNREGISTER_BROKER with the 5.x semantics
// (RouteInfoManager.unRegisterBroker). An unknown broker changes nothing.
func (s *State) ApplyUnregisterBroker(c *UnregisterBroker, index uint64) bool {
	return s.unregisterBatch([]UnregisterBroker{*c}, index)
}
