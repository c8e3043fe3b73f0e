package watch

import "github.com/raftns/raftns/fsm/state"

// maxListedTopics bounds the topics a change lists; a change touching
// more says AllTopics.
const maxListedTopics = 64

// Changed implements fsm.ChangeObserver: it describes the change and
// publishes it.
func (h *Hub) Changed(index uint64, cmd any, audited bool) {
	c := ChangeOf(index, cmd)
	if audited {
		c.Kinds |= Audit
	}
	h.Publish(c)
}

// ChangeOf describes what applying cmd at index touched; a nil cmd is a
// restore, which may have touched everything.
func ChangeOf(index uint64, cmd any) Change {
	c := Change{Index: index}
	switch v := cmd.(type) {
	case nil:
		c.Kinds, c.AllTopics = AllKinds, true
	case *state.RegisterBroker:
		c.Kinds, c.Clusters = Route|Broker, []string{v.ClusterName}
		c.listTopics(len(v.TopicConfigs), func(i int) string { return v.TopicConfigs[i].TopicName })
	case *state.DropUnlistedTopics:
		c.Kinds, c.Clusters = Route, []string{v.ClusterName}
		c.listTopics(len(v.Topics), func(i int) string { return v.Topics[i] })
	case *state.UnregisterBroker:
		c.Kinds, c.AllTopics, c.Clusters = Route|Broker, true, []string{v.ClusterName}
	case *state.ExpireBrokers:
		c.Kinds, c.AllTopics = Route|Broker, true
	case *state.WipeWritePerm, *state.AddWritePerm:
		c.Kinds, c.AllTopics = Route, true
	case *state.DeleteTopic:
		c.Kinds, c.Topics = Route, []string{v.Topic}
		if v.ClusterName != "" {
			c.Clusters = []string{v.ClusterName}
		}
	case *state.RegisterTopic:
		c.Kinds, c.Topics = Route, []string{v.Topic}
	case *state.PutKV:
		c.Kinds, c.Topics = KV, kvTopics(v.Namespace, v.Key)
	case *state.DeleteKV:
		c.Kinds, c.Topics = KV, kvTopics(v.Namespace, v.Key)
	case *state.SetMember, *state.RemoveMember, *state.SetMemberDraining, *state.SetClusterVersion:
		c.Kinds = Member
	case *state.RecordAudit:
		c.Kinds = Audit
	case *state.AckMinBrokerIDNotice:
		c.Kinds = Broker
	default:
		// The controller's commands and anything added later.
		c.Kinds = Controller
	}
	return c
}

// listTopics lists the n topics name gives, or says AllTopics past
// maxListedTopics.
func (c *Change) listTopics(n int, name func(int) string) {
	if n > maxListedTopics {
		c.AllTopics = true
		return
	}
	c.Topics = make([]string, n)
	for i := range c.Topics {
		c.Topics[i] = name(i)
	}
}

// kvTopics names the topic an ORDER_TOPIC_CONFIG key is (its routes carry
// it as orderTopicConf); other namespaces name none.
func kvTopics(ns, key string) []string {
	if ns == "ORDER_TOPIC_CONFIG" {
		return []string{key}
	}
	return nil
}
