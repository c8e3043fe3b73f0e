package fsm

import "github.com/raftns/raftns/fsm/state"

// Route answers GET_ROUTEINFO_BY_TOPIC (RouteInfoManager.pickupTopicRouteData,
// 5.x). QueueDatas holds every QueueData of the topic and BrokerDatas the
// groups that exist, both sorted by broker name; there is no route (false)
// when the topic is unknown or none of its broker names has a group.
// FilterServerTable maps the groups' addresses to their filter servers and is
// never nil. With withOrderTopicConf, OrderTopicConf comes from KV
// ORDER_TOPIC_CONFIG. Routes show the registered ids; ShowActingMasters and
// FilterByZone give the 5.x views of a route.
func (f *FSM) Route(topic string, withOrderTopicConf bool) (state.TopicRouteData, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.st.Route(topic, withOrderTopicConf)
}
