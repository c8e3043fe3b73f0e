package state

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// recReplicaGroup is the snapshot record of one controller replica group
// (ReplicaGroup, schema 2).
const recReplicaGroup uint8 = 12

// replicaGroupsTable is the controller's record of each broker group, by
// broker name; groups are never changed in place.
type replicaGroupsTable struct{ m map[string]*ReplicaGroup }

var replicaGroupsSlot = slotOf[*replicaGroupsTable]()

// ctrl is the controller's replica-group table of s.
func (s *State) ctrl() map[string]*ReplicaGroup {
	return s.tables[replicaGroupsSlot].(*replicaGroupsTable).m
}

func newReplicaGroups() table { return &replicaGroupsTable{m: map[string]*ReplicaGroup{}} }

func (t *replicaGroupsTable) thaw() table { return &replicaGroupsTable{m: maps.Clone(t.m)} }

func (t *replicaGroupsTable) walk(emit emitFunc) error {
	for _, name := range sortedKeys(t.m) {
		if err := emit(recReplicaGroup, t.m[name]); err != nil {
			return err
		}
	}
	return nil
}

func (t *replicaGroupsTable) restore(rs *restorer, _ uint8, payload []byte) error {
	g, err := decode[ReplicaGroup](payload)
	if err != nil {
		return err
	}
	switch {
	case rs.schema < 2:
		return fmt.Errorf("replica group in a schema %d snapshot", rs.schema)
	case g.BrokerName == "":
		return fmt.Errorf("replica group without a broker name")
	}
	if _, ok := t.m[g.BrokerName]; ok {
		return duplicate("replica group", g.BrokerName)
	}
	c := g.clone()
	c.SyncStateSet = sortedSet(c.SyncStateSet)
	if !slices.IsSortedFunc(c.Brokers, func(a, b ReplicaBroker) int { return cmp.Compare(a.ID, b.ID) }) {
		return fmt.Errorf("replica group %s: brokers out of order", g.BrokerName)
	}
	t.m[g.BrokerName] = c
	return nil
}
