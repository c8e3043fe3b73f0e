package state

import "sort"

// topicsWhere returns the sorted topics whose queue table matches.
func (s *State) topicsWhere(match func(*queueTable) bool) TopicList {
	topics := []string{}
	for topic, t := range s.topics() {
		if match(t) {
			topics = append(topics, topic)
		}
	}
	sort.Strings(topics)
	return TopicList{Topics: topics}
}

// AllTopics answers GET_ALL_TOPIC_LIST_FROM_NAMESERVER: every topic with
// queue data, sorted.
func (s *State) AllTopics() TopicList {
	return TopicList{Topics: sortedKeys(s.topics())}
}

// TopicsByCluster answers GET_TOPICS_BY_CLUSTER: the topics with queue data
// for any broker name of the cluster, sorted; an unknown cluster gives an
// empty list.
func (s *State) TopicsByCluster(cluster string) TopicList {
	set, ok := s.clusters()[cluster]
	if !ok {
		return TopicList{Topics: []string{}}
	}
	return s.topicsWhere(func(t *queueTable) bool {
		for name := range set.m {
			if _, ok := t.m[name]; ok {
				return true
			}
		}
		return false
	})
}

// SystemTopics answers GET_SYSTEM_TOPIC_LIST_FROM_NS: every cluster name and
// broker name (sorted, without duplicates) and, as BrokerAddr, the address
// with the smallest id of the first group by name that has one.
func (s *State) SystemTopics() TopicList {
	set := map[string]struct{}{}
	for cluster, names := range s.clusters() {
		set[cluster] = struct{}{}
		for name := range names.m {
			set[name] = struct{}{}
		}
	}
	tl := TopicList{Topics: sortedKeys(set)}
	for _, name := range sortedKeys(s.brokers()) {
		if addrs := s.brokers()[name].data.BrokerAddrs; len(addrs) > 0 {
			tl.BrokerAddr = addrs[minID(addrs)]
			break
		}
	}
	return tl
}

// UnitTopics answers GET_UNIT_TOPIC_LIST: topics whose first QueueData (by
// broker name) has FlagUnit.
func (s *State) UnitTopics() TopicList {
	return s.topicsByFirstFlag(func(flag int32) bool { return flag&FlagUnit != 0 })
}

// HasUnitSubTopics answers GET_HAS_UNIT_SUB_TOPIC_LIST: topics whose first
// QueueData (by broker name) has FlagUnitSub.
func (s *State) HasUnitSubTopics() TopicList {
	return s.topicsByFirstFlag(func(flag int32) bool { return flag&FlagUnitSub != 0 })
}

// HasUnitSubUnunitTopics answers GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST: topics
// whose first QueueData (by broker name) has FlagUnitSub and not FlagUnit.
func (s *State) HasUnitSubUnunitTopics() TopicList {
	return s.topicsByFirstFlag(func(flag int32) bool { return flag&FlagUnitSub != 0 && flag&FlagUnit == 0 })
}

// topicsByFirstFlag ports the unit lists, which look only at the first
// QueueData of each topic; "first" is the smallest broker name here, where
// the reference takes HashMap order.
func (s *State) topicsByFirstFlag(match func(int32) bool) TopicList {
	return s.topicsWhere(func(t *queueTable) bool {
		names := sortedKeys(t.m)
		return len(names) > 0 && match(t.m[names[0]].TopicSysFlag)
	})
}
