package fsm

import "slices"

// Route answers GET_ROUTEINFO_BY_TOPIC (RouteInfoManager.pickupTopicRouteData,
// 5.x). QueueDatas holds every QueueData of the topic and BrokerDatas the
// groups that exist, both sorted by broker name; there is no route (false)
// when the topic is unknown or none of its broker names has a group.
// FilterServerTable maps the groups' addresses to their filter servers and is
// never nil. With withOrderTopicConf, OrderTopicConf comes from KV
// ORDER_TOPIC_CONFIG. Routes show the registered ids; ShowActingMasters and
// FilterByZone give the 5.x views of a route.
func (f *FSM) Route(topic string, withOrderTopicConf bool) (TopicRouteData, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.st.route(topic, withOrderTopicConf)
}

func (s *state) route(topic string, withOrderTopicConf bool) (TopicRouteData, bool) {
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
func (s *state) addFilterServers(out map[string][]string, bd BrokerData) {
	for _, addr := range bd.BrokerAddrs {
		if l, ok := s.filters[BrokerKey{Cluster: bd.Cluster, Addr: addr}]; ok {
			out[addr] = slices.Clone(l)
		}
	}
}
