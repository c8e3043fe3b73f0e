package state

import "slices"

// Route answers GET_ROUTEINFO_BY_TOPIC from s (FSM.Route says how).
func (s *State) Route(topic string, withOrderTopicConf bool) (TopicRouteData, bool) {
	t, ok := s.topics()[topic]
	if !ok {
		return TopicRouteData{}, false
	}
	rd := TopicRouteData{FilterServerTable: map[string][]string{}}
	brokers, filters := s.brokers(), s.filters()
	for _, name := range sortedKeys(t.m) {
		rd.QueueDatas = append(rd.QueueDatas, t.m[name])
		g, ok := brokers[name]
		if !ok {
			continue
		}
		rd.BrokerDatas = append(rd.BrokerDatas, cloneBrokerData(g.data))
		addFilterServers(rd.FilterServerTable, filters, g.data)
	}
	if len(rd.BrokerDatas) == 0 {
		return TopicRouteData{}, false
	}
	if m, ok := s.mappings()[topic]; ok {
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
func addFilterServers(out map[string][]string, filters map[BrokerKey][]string, bd BrokerData) {
	for _, addr := range bd.BrokerAddrs {
		if l, ok := filters[BrokerKey{Cluster: bd.Cluster, Addr: addr}]; ok {
			out[addr] = slices.Clone(l)
		}
	}
}
