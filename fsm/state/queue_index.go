package state

import (
	"fmt"
	"maps"
	"slices"
)

// The route table (topics) is keyed by topic. What happens to a broker
// group — it leaves, loses its master, has its write permission wiped —
// touches the topics that group serves, so the state also indexes them by
// broker name (byBroker). Every change of a topic's queue data goes through
// putQueue, dropQueue and dropTopic, which keep both in step; the index is
// derived, part of the topics table (table_topics.go), never written to
// snapshots, and rebuilt as a snapshot's topics are restored.

// putQueue sets the queue data qd.BrokerName has in topic, creating the
// topic when needed.
func (s *State) putQueue(topic string, qd QueueData) {
	t := writable(s, s.topics(), topic, true)
	if _, had := t.m[qd.BrokerName]; !had {
		writable(s, s.byBroker(), qd.BrokerName, true).m[topic] = struct{}{}
	}
	t.m[qd.BrokerName] = qd
}

// dropQueue removes name's queue data from topic, and the topic when none
// is left; it reports whether there was any.
func (s *State) dropQueue(topic, name string) bool {
	if _, ok := s.Queue(topic, name); !ok {
		return false
	}
	t := writable(s, s.topics(), topic, false)
	delete(t.m, name)
	if len(t.m) == 0 {
		delete(s.topics(), topic)
	}
	s.unindex(name, topic)
	return true
}

// dropTopic removes topic with all its queue data.
func (s *State) dropTopic(topic string) {
	t, ok := s.topics()[topic]
	if !ok {
		return
	}
	for name := range t.m {
		s.unindex(name, topic)
	}
	delete(s.topics(), topic)
}

func (s *State) unindex(name, topic string) {
	set := writable(s, s.byBroker(), name, false)
	if set == nil {
		return
	}
	delete(set.m, topic)
	if len(set.m) == 0 {
		delete(s.byBroker(), name)
	}
}

// topicsOf returns the topics holding queue data of name, sorted, in a
// slice of their own (the caller may change the tables while it walks
// them).
func (s *State) topicsOf(name string) []string {
	set, ok := s.byBroker()[name]
	if !ok {
		return nil
	}
	out := make([]string, 0, len(set.m))
	for topic := range set.m {
		out = append(out, topic)
	}
	slices.Sort(out)
	return out
}

// CheckQueueIndex reports an index (byBroker) that differs from the one
// the route table implies; tests call it after random writes.
func (s *State) CheckQueueIndex() error {
	want := map[string]map[string]struct{}{}
	for topic, t := range s.topics() {
		for name := range t.m {
			if want[name] == nil {
				want[name] = map[string]struct{}{}
			}
			want[name][topic] = struct{}{}
		}
	}
	got := make(map[string]map[string]struct{}, len(s.byBroker()))
	for name, set := range s.byBroker() {
		got[name] = set.m
	}
	if !maps.EqualFunc(got, want, maps.Equal) {
		return fmt.Errorf("queue index %v, route table says %v", got, want)
	}
	return nil
}
