package fsm

import "github.com/raftns/raftns/fsm/state"

// AllTopics answers GET_ALL_TOPIC_LIST_FROM_NAMESERVER: every topic with
// queue data, sorted.
func (f *FSM) AllTopics() state.TopicList {
	return read(f, (*state.State).AllTopics)
}

// TopicsByCluster answers GET_TOPICS_BY_CLUSTER: the topics with queue data
// for any broker name of the cluster, sorted; an unknown cluster gives an
// empty list.
func (f *FSM) TopicsByCluster(cluster string) state.TopicList {
	return read(f, func(s *state.State) state.TopicList { return s.TopicsByCluster(cluster) })
}

// SystemTopics answers GET_SYSTEM_TOPIC_LIST_FROM_NS: every cluster name and
// broker name (sorted, without duplicates) and, as BrokerAddr, the address
// with the smallest id of the first group by name that has one.
func (f *FSM) SystemTopics() state.TopicList {
	return read(f, (*state.State).SystemTopics)
}

// UnitTopics answers GET_UNIT_TOPIC_LIST: topics whose first QueueData (by
// broker name) has FlagUnit.
func (f *FSM) UnitTopics() state.TopicList { return read(f, (*state.State).UnitTopics) }

// HasUnitSubTopics answers GET_HAS_UNIT_SUB_TOPIC_LIST: topics whose first
// QueueData (by broker name) has FlagUnitSub.
func (f *FSM) HasUnitSubTopics() state.TopicList { return read(f, (*state.State).HasUnitSubTopics) }

// HasUnitSubUnunitTopics answers GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST: topics
// whose first QueueData (by broker name) has FlagUnitSub and not FlagUnit.
func (f *FSM) HasUnitSubUnunitTopics() state.TopicList {
	return read(f, (*state.State).HasUnitSubUnunitTopics)
}
