package state

import "maps"

// recCluster is the snapshot record of one cluster (clusterRecord).
const recCluster uint8 = 2

type clusterRecord struct {
	Name        string
	BrokerNames []string
}

// clustersTable is clusterAddrTable: cluster -> the broker names of its
// groups.
type clustersTable struct{ m map[string]*nameSet }

var clustersSlot = slotOf[*clustersTable]()

// clusters is the clusters table of s.
func (s *State) clusters() map[string]*nameSet { return s.tables[clustersSlot].(*clustersTable).m }

func newClusters() table { return &clustersTable{m: map[string]*nameSet{}} }

func (t *clustersTable) thaw() table { return &clustersTable{m: maps.Clone(t.m)} }

func (t *clustersTable) walk(emit emitFunc) error {
	for _, name := range sortedKeys(t.m) {
		if err := emit(recCluster, &clusterRecord{Name: name, BrokerNames: sortedKeys(t.m[name].m)}); err != nil {
			return err
		}
	}
	return nil
}

func (t *clustersTable) restore(rs *restorer, _ uint8, payload []byte) error {
	r, err := decode[clusterRecord](payload)
	if err != nil {
		return err
	}
	if _, ok := t.m[r.Name]; ok {
		return duplicate("cluster", r.Name)
	}
	set := writable(rs.s, t.m, r.Name, true)
	for _, n := range r.BrokerNames {
		set.m[n] = struct{}{}
	}
	return nil
}
