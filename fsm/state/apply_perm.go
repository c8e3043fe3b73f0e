package state

// ApplyWritePerm ports RouteInfoManager.operateWritePermOfBroker: for every
// topic with QueueData for brokerName, WIPE clears the write bit and ADD
// assigns PermRead|PermWrite (6; other bits are dropped). The count is the
// number of such topics, changed or not, so a retry answers the same.
func (s *State) ApplyWritePerm(brokerName string, add bool) (WritePermResult, bool) {
	count, changed := 0, false
	for _, topic := range s.topicsOf(brokerName) {
		qd, _ := s.Queue(topic, brokerName)
		count++
		perm := qd.Perm &^ PermWrite
		if add {
			perm = PermRead | PermWrite
		}
		if perm != qd.Perm {
			qd.Perm = perm
			writable(s, s.topics(), topic, false).m[brokerName] = qd
			changed = true
		}
	}
	return WritePermResult{TopicCount: count}, changed
}
