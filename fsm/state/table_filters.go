package state

import (
	"fmt"
	"maps"
)

// recFilter is the snapshot record of one broker's filter servers
// (filterRecord).
const recFilter uint8 = 6

type filterRecord struct {
	Key   BrokerKey
	Addrs []string
}

// filtersTable is filterServerTable; its slices are never changed in place.
type filtersTable struct{ m map[BrokerKey][]string }

var filtersSlot = slotOf[*filtersTable]()

// filters is the filter-server table of s.
func (s *State) filters() map[BrokerKey][]string { return s.tables[filtersSlot].(*filtersTable).m }

func newFilters() table { return &filtersTable{m: map[BrokerKey][]string{}} }

func (t *filtersTable) thaw() table { return &filtersTable{m: maps.Clone(t.m)} }

func (t *filtersTable) walk(emit emitFunc) error {
	for _, key := range sortedBrokerKeys(t.m) {
		if err := emit(recFilter, &filterRecord{Key: key, Addrs: t.m[key]}); err != nil {
			return err
		}
	}
	return nil
}

func (t *filtersTable) restore(_ *restorer, _ uint8, payload []byte) error {
	r, err := decode[filterRecord](payload)
	if err != nil {
		return err
	}
	if _, ok := t.m[r.Key]; ok || len(r.Addrs) == 0 {
		return fmt.Errorf("duplicate or empty filter list %v", r.Key)
	}
	t.m[r.Key] = r.Addrs
	return nil
}
