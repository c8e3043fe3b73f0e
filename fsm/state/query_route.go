package state

import "slices"

// Route answers GET_ROUTEINFO_BY_TOPIC from s (FSM.Route says how).
func (s *State) Route(topic string, withOrderTopicConf bool) (TopicRouteData, bool) {
	t, ok := s.topics[topic]
	if !ok {
		return TopicRouteData{}, false
	}
	rd := TopicRouteData{FilterServerTable: map[string][]string{}}
	for _, name := range sortedKeys(t.m) {
		rd.QueueDatas = append(rd.QueueDatas, t.m[name])
		g, ok := s.brokers[name]
		if !ok {
			continue
		}
		rd.BrokerDatas = append(rd.BrokerDatas, cloneBrokerData(g.data))
		s.addFilterServers(rd.FilterServerTable, g.data)
	}
	if len(rd.BrokerDatas) == 0 {
		return TopicRouteData{}, false
	}
	if m, ok := s.mappings[topic]; ok {
		rd.TopicQueueMappingByBroker = make(map[string]TopicQueueMappingInfo, len(m.m))
		for name, mi := range m.m {
			rd.TopicQueueMappingByBroker[name] = cloneMapping(mi)
		}
	}
	if withOrderTopicConf {
		rd.OrderTopicConf = s.namespace(NamespaceOrderTopicConfig)[topic]
	}
	return rd, true
}

// addFilterServers adds the filter-server lists of a group's addresses, keyed
// by (group cluster, address) as the reference does; absent lists are left
// out (the reference adds nulls that its encoder drops).
func (s *State) addFilterServers(out map[string][]string, bd BrokerData) {
	for _, addr := range bd.BrokerAddrs {
		if l, ok := s.filters[BrokerKey{Cluster: bd.Cluster, Addr: addr}]; ok {
			out[addr] = slices.Clone(l)
		}
	}
}
