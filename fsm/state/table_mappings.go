package state

import "maps"

// recMapping is the snapshot record of one topic's static-topic mappings
// (mappingRecord).
const recMapping uint8 = 7

type mappingRecord struct {
	Topic string
	Infos []TopicQueueMappingInfo // sorted by Bname, the table's key
}

// mappingsTable is topicQueueMappingInfoTable: topic -> brokerName -> info;
// infos are never changed in place.
type mappingsTable struct{ m map[string]*mappingTable }

var mappingsSlot = slotOf[*mappingsTable]()

// mappings is the static-topic mapping table of s.
func (s *State) mappings() map[string]*mappingTable { return s.tables[mappingsSlot].(*mappingsTable).m }

func newMappings() table { return &mappingsTable{m: map[string]*mappingTable{}} }

func (t *mappingsTable) thaw() table { return &mappingsTable{m: maps.Clone(t.m)} }

func (t *mappingsTable) walk(emit emitFunc) error {
	for _, topic := range sortedKeys(t.m) {
		infos := t.m[topic].m
		rec := &mappingRecord{Topic: topic}
		for _, name := range sortedKeys(infos) {
			rec.Infos = append(rec.Infos, infos[name])
		}
		if err := emit(recMapping, rec); err != nil {
			return err
		}
	}
	return nil
}

func (t *mappingsTable) restore(rs *restorer, _ uint8, payload []byte) error {
	r, err := decode[mappingRecord](payload)
	if err != nil {
		return err
	}
	if _, ok := t.m[r.Topic]; ok {
		return duplicate("mapping topic", r.Topic)
	}
	return restoreTable(rs.s, t.m, r.Topic, "mapping", r.Infos, func(mi TopicQueueMappingInfo) string { return mi.Bname })
}
