package state

// ApplyDeleteTopic ports RouteInfoManager.deleteTopic. Without a cluster the
// whole topic goes; with one, only the QueueData of that cluster's broker
// names, and the topic when none remain. An unknown cluster or topic changes
// nothing. Like the reference, static-topic mappings are left alone.
func (s *State) ApplyDeleteTopic(c *DeleteTopic) bool {
	t, ok := s.topics()[c.Topic]
	if !ok {
		return false
	}
	if c.ClusterName == "" {
		s.dropTopic(c.Topic)
		return true
	}
	names, ok := s.clusters()[c.ClusterName]
	if !ok {
		return false
	}
	changed := false
	for name := range names.m {
		if _, ok := t.m[name]; ok {
			changed = s.dropQueue(c.Topic, name) || changed
		}
	}
	return changed
}

// ApplyRegisterTopic ports RouteInfoManager.registerTopic (5.x): every
// QueueData must name a registered broker group. For a new topic one unknown
// name rejects the whole request; for an existing topic the QueueData before
// the first unknown name are already in place (the reference's partial
// update). QueueData are stored as sent. unknown is the first broker name
// without a group, "" when there is none.
func (s *State) ApplyRegisterTopic(c *RegisterTopic) (changed bool, unknown string) {
	if len(c.QueueDatas) == 0 {
		return false, ""
	}
	if _, exists := s.topics()[c.Topic]; !exists {
		for _, qd := range c.QueueDatas {
			if _, ok := s.brokers()[qd.BrokerName]; !ok {
				return false, qd.BrokerName
			}
		}
	}
	for _, qd := range c.QueueDatas {
		if _, ok := s.brokers()[qd.BrokerName]; !ok {
			return changed, qd.BrokerName
		}
		if cur, ok := s.Queue(c.Topic, qd.BrokerName); ok && cur == qd {
			continue
		}
		s.putQueue(c.Topic, qd)
		changed = true
	}
	return changed, ""
}
