package state

import (
	"fmt"
	"maps"
)

// recTopic is the snapshot record of one topic's queue data (topicRecord).
const recTopic uint8 = 4

type topicRecord struct {
	Topic  string
	Queues []QueueData // sorted by broker name
}

// topicsTable is topicQueueTable, topic -> brokerName -> QueueData, with
// its index by broker name (queue_index.go), which snapshots do not hold.
type topicsTable struct {
	m     map[string]*queueTable
	index map[string]*nameSet
}

var topicsSlot = slotOf[*topicsTable]()

// topics is the route table of s, by topic.
func (s *State) topics() map[string]*queueTable { return s.tables[topicsSlot].(*topicsTable).m }

// byBroker is the index of the route table: brokerName -> the topics with
// its queue data.
func (s *State) byBroker() map[string]*nameSet { return s.tables[topicsSlot].(*topicsTable).index }

func newTopics() table {
	return &topicsTable{m: map[string]*queueTable{}, index: map[string]*nameSet{}}
}

func (t *topicsTable) thaw() table {
	return &topicsTable{m: maps.Clone(t.m), index: maps.Clone(t.index)}
}

func (t *topicsTable) walk(emit emitFunc) error {
	for _, topic := range sortedKeys(t.m) {
		q := t.m[topic].m
		rec := &topicRecord{Topic: topic}
		for _, name := range sortedKeys(q) {
			rec.Queues = append(rec.Queues, q[name])
		}
		if err := emit(recTopic, rec); err != nil {
			return err
		}
	}
	return nil
}

// restore adds a topic's queue data and indexes it.
func (t *topicsTable) restore(rs *restorer, _ uint8, payload []byte) error {
	r, err := decode[topicRecord](payload)
	if err != nil {
		return err
	}
	if _, ok := t.m[r.Topic]; ok || len(r.Queues) == 0 {
		return fmt.Errorf("duplicate or empty topic %q", r.Topic)
	}
	if err := restoreTable(rs.s, t.m, r.Topic, "queue data", r.Queues, func(qd QueueData) string { return qd.BrokerName }); err != nil {
		return err
	}
	for _, qd := range r.Queues {
		writable(rs.s, t.index, qd.BrokerName, true).m[r.Topic] = struct{}{}
	}
	return nil
}
