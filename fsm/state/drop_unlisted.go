package state

// DropUnlistedTopics is deleteTopicWithBrokerRegistration for a
// registration the leader split into several entries (SplitRegistration):
// no part lists the broker's whole table, so no part deletes anything, and
// the leader follows the parts with the topics the whole table does not
// list, computed from the state the parts left (UnlistedTopics). It
// removes BrokerName's queue data from each topic (and a topic left
// without queue data) only while the broker's live entry still carries
// DataVersion: a newer registration of the broker, applied in between,
// decides for itself. Only the leader proposes it.
type DropUnlistedTopics struct {
	ClusterName string
	BrokerAddr  string
	BrokerName  string
	DataVersion DataVersion
	Topics      []string
}

// UnlistedTopics plans only the deletion of c against s: the topics of
// the broker name that c does not list, when c deletes any.
func (s *State) UnlistedTopics(c *RegisterBroker) []string {
	p, _ := prepareRegister(s, c)
	if writes, _ := p.topicWriter(); p.stale || !writes || !p.deletesUnlisted() {
		return nil
	}
	p.planDrops(s)
	return p.dropped
}

// ApplyDropUnlistedTopics removes the listed topics' queue data of the
// broker name while the registration it was computed for is the broker's
// current one, and returns how many topics lost it.
func (s *State) ApplyDropUnlistedTopics(c *DropUnlistedTopics) int {
	reg, ok := s.regs()[BrokerKey{Cluster: c.ClusterName, Addr: c.BrokerAddr}]
	if !ok || reg.BrokerName != c.BrokerName || !reg.DataVersion.Equal(c.DataVersion) {
		return 0
	}
	dropped := 0
	for _, topic := range c.Topics {
		if s.dropQueue(topic, c.BrokerName) {
			dropped++
		}
	}
	return dropped
}
