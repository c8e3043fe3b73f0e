package fsm

import "sort"

// AllTopics answers GET_ALL_TOPIC_LIST_FROM_NAMESERVER: every topic with
// queue data, sorted.
func (f *FSM) AllTopics() TopicList {
	return read(f, func(s *state) TopicList {
		return TopicList{Topics: sortedKeys(s.topics)}
	})
}

// TopicsByCluster answers GET_TOPICS_BY_CLUSTER: the topics with queue data
// for any broker name of the cluster, sorted; an unknown cluster gives an
// empty list.
func (f *FSM) TopicsByCluster(cluster string) TopicList {
	return read(f, func(s *state) TopicList {
		set, ok := s.clusters[cluster]
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
	})
}

// SystemTopics answers GET_SYSTEM_TOPIC_LIST_FROM_NS: every cluster name and
// broker name (sorted, without duplicates) and, as BrokerAddr, the address
// with the smallest id of the first group by name that has one.
func (f *FSM) SystemTopics() TopicList {
	return read(f, func(s *state) TopicList {
		set := map[string]struct{}{}
		for cluster, names := range s.clusters {
			set[cluster] = struct{}{}
			for name := range names.m {
				set[name] = struct{}{}
			}
		}
		tl := TopicList{Topics: sortedKeys(set)}
		for _, name := range sortedKeys(s.brokers) {
			if addrs := s.brokers[name].data.BrokerAddrs; len(addrs) > 0 {
				tl.BrokerAddr = addrs[minID(addrs)]
				break
			}
		}
		return tl
	})
}

// UnitTopics answers GET_UNIT_TOPIC_LIST: topics whose first QueueData (by
// broker name) has FlagUnit.
func (f *FSM) UnitTopics() TopicList {
	return f.topicsByFirstFlag(func(flag int32) bool { return flag&FlagUnit != 0 })
}

// HasUnitSubTopics answers GET_HAS_UNIT_SUB_TOPIC_LIST: topics whose first
// QueueData (by broker name) has FlagUnitSub.
func (f *FSM) HasUnitSubTopics() TopicList {
	return f.topicsByFirstFlag(func(flag int32) bool { return flag&FlagUnitSub != 0 })
}

// HasUnitSubUnunitTopics answers GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST: topics
// whose first QueueData (by broker name) has FlagUnitSub and not FlagUnit.
func (f *FSM) HasUnitSubUnunitTopics() TopicList {
	return f.topicsByFirstFlag(func(flag int32) bool { return flag&FlagUnitSub != 0 && flag&FlagUnit == 0 })
}

// topicsByFirstFlag ports the unit lists, which look only at the first
// QueueData of each topic; "first" is the smallest broker name here, where
// the reference takes HashMap order.
func (f *FSM) topicsByFirstFlag(match func(int32) bool) TopicList {
	return read(f, func(s *state) TopicList {
		return s.topicsWhere(func(t *queueTable) bool {
			names := sortedKeys(t.m)
			return len(names) > 0 && match(t.m[names[0]].TopicSysFlag)
		})
	})
}

// topicsWhere returns the sorted topics whose queue table matches.
func (s *state) topicsWhere(match func(*queueTable) bool) TopicList {
	topics := []string{}
	for topic, t := range s.topics {
		if match(t) {
			topics = append(topics, topic)
		}
	}
	sort.Strings(topics)
	return TopicList{Topics: topics}
}
