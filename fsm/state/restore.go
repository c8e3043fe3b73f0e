package state

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/raftns/raftns/internal/feature"
)

// restorer fills a fresh state from records, rejecting duplicates.
type restorer struct {
	s      *State
	schema uint32
	// needs is the release the snapshot's writer said it needs.
	needs string
}

// record restores one record of a kind snapshotRecords registers; any
// other kind is from a newer release.
func (rs *restorer) record(typ uint8, payload []byte) error {
	var err error
	if r, ok := snapshotRecordByType[typ]; ok {
		err = r.restore(rs, payload)
	} else {
		err = &feature.TooNewError{What: fmt.Sprintf("snapshot record type %d", typ), Needs: rs.needs}
	}
	if err != nil {
		return fmt.Errorf("%w: type %d: %w", ErrSnapshotRecord, typ, err)
	}
	return nil
}

func duplicate(what string, key any) error { return fmt.Errorf("duplicate %s %v", what, key) }

func (rs *restorer) cluster(r *clusterRecord) error {
	if _, ok := rs.s.clusters[r.Name]; ok {
		return duplicate("cluster", r.Name)
	}
	set := writable(rs.s, rs.s.clusters, r.Name, true)
	for _, n := range r.BrokerNames {
		set.m[n] = struct{}{}
	}
	return nil
}

func (rs *restorer) broker(bd *BrokerData) error {
	if _, ok := rs.s.brokers[bd.BrokerName]; ok {
		return duplicate("broker", bd.BrokerName)
	}
	rs.s.putGroup(cloneBrokerData(*bd))
	return nil
}

func (rs *restorer) topic(r *topicRecord) error {
	if _, ok := rs.s.topics[r.Topic]; ok || len(r.Queues) == 0 {
		return fmt.Errorf("duplicate or empty topic %q", r.Topic)
	}
	return restoreTable(rs.s, rs.s.topics, r.Topic, "queue data", r.Queues, func(qd QueueData) string { return qd.BrokerName })
}

func (rs *restorer) registration(reg *BrokerRegistration) error {
	if _, ok := rs.s.regs[reg.Key]; ok {
		return duplicate("registration", reg.Key)
	}
	rs.s.regs[reg.Key] = *reg
	return nil
}

func (rs *restorer) filter(r *filterRecord) error {
	if _, ok := rs.s.filters[r.Key]; ok || len(r.Addrs) == 0 {
		return fmt.Errorf("duplicate or empty filter list %v", r.Key)
	}
	rs.s.filters[r.Key] = r.Addrs
	return nil
}

func (rs *restorer) mapping(r *mappingRecord) error {
	if _, ok := rs.s.mappings[r.Topic]; ok {
		return duplicate("mapping topic", r.Topic)
	}
	return restoreTable(rs.s, rs.s.mappings, r.Topic, "mapping", r.Infos, func(mi TopicQueueMappingInfo) string { return mi.Bname })
}

// restoreTable makes the inner table of topic in tbl and puts each of
// items in it under its key, refusing a key seen twice.
func restoreTable[V any](s *State, tbl map[string]*owned[V], topic, what string, items []V, key func(V) string) error {
	t := writable(s, tbl, topic, true)
	for _, v := range items {
		k := key(v)
		if _, ok := t.m[k]; ok {
			return duplicate(what+" of topic "+topic, k)
		}
		t.m[k] = v
	}
	return nil
}

func (rs *restorer) kvNamespace(r *kvNamespaceRecord) error {
	if _, ok := rs.s.kv[r.Namespace]; ok {
		return duplicate("namespace", r.Namespace)
	}
	writable(rs.s, rs.s.kv, r.Namespace, true)
	return nil
}

func (rs *restorer) kv(r *kvRecord) error {
	t, ok := rs.s.kv[r.Namespace]
	if !ok {
		return fmt.Errorf("key %q of undeclared namespace %q", r.Key, r.Namespace)
	}
	if _, ok := t.m[r.Key]; ok {
		return duplicate("key", r.Namespace+"/"+r.Key)
	}
	t.m[r.Key] = r.Value
	return nil
}

func (rs *restorer) member(m *Member) error {
	if _, ok := rs.s.members[m.ID]; ok {
		return duplicate("member", m.ID)
	}
	rs.s.members[m.ID] = *m
	return nil
}

func (rs *restorer) replicaGroup(g *ReplicaGroup) error {
	switch {
	case rs.schema < 2:
		return fmt.Errorf("replica group in a schema %d snapshot", rs.schema)
	case g.BrokerName == "":
		return fmt.Errorf("replica group without a broker name")
	}
	if _, ok := rs.s.ctrl[g.BrokerName]; ok {
		return duplicate("replica group", g.BrokerName)
	}
	c := g.clone()
	c.SyncStateSet = sortedSet(c.SyncStateSet)
	if !slices.IsSortedFunc(c.Brokers, func(a, b ReplicaBroker) int { return cmp.Compare(a.ID, b.ID) }) {
		return fmt.Errorf("replica group %s: brokers out of order", g.BrokerName)
	}
	rs.s.ctrl[g.BrokerName] = c
	return nil
}

func (rs *restorer) session(r *sessionRecord) error {
	if _, ok := rs.s.sessions[r.Name]; ok || r.Name == "" {
		return duplicate("session", r.Name)
	}
	if len(rs.s.sessions) >= maxSessions || len(r.Done) > maxRequestsPerSession {
		return fmt.Errorf("session table beyond its bounds")
	}
	if r.Done == nil {
		r.Done = map[uint64][]byte{}
	}
	rs.s.sessions[r.Name] = r.session
	return nil
}
