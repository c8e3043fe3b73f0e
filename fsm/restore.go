package fsm

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/snapshots"
)

// Restore replaces the state with a snapshot. It builds the new state
// completely and verifies the snapshot's checksum before swapping it in under
// the lock; a damaged, unknown-version or inconsistent snapshot returns an
// error and leaves the current state untouched.
func (f *FSM) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	st, meta, err := readState(rc)
	if err != nil {
		f.logger.Error("snapshot restore failed, state unchanged", "error", err)
		return fmt.Errorf("fsm: restore snapshot: %w", err)
	}
	f.mu.Lock()
	f.st = st
	f.publishAudit()
	f.gen.Add(1)
	f.applied.Store(meta.AppliedIndex)
	f.restoredIndex.Store(meta.AppliedIndex)
	f.restores.Add(1)
	if f.changeObserver != nil {
		f.changeObserver.Changed(meta.AppliedIndex, nil, st.audit.total() > 0)
	}
	f.mu.Unlock()
	f.logger.Info("snapshot restored", "index", meta.AppliedIndex,
		"brokers", len(st.regs), "topics", len(st.topics))
	return nil
}

// Restores returns how many snapshots this FSM has restored (the member's
// own at start, the leader's when the member was further behind than the
// leader's log reaches, an operator's restore) and the applied index the
// last of them stood for.
func (f *FSM) Restores() (count, lastIndex uint64) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.restores.Load(), f.restoredIndex.Load()
}

// readState reads a whole snapshot into a fresh state.
func readState(r io.Reader) (*state, metaRecord, error) {
	var meta metaRecord
	sr, err := snapshots.NewReader(r)
	if err != nil {
		return nil, meta, err
	}
	typ, payload, err := sr.Next()
	if err != nil {
		return nil, meta, err
	}
	if typ != recMeta {
		return nil, meta, fmt.Errorf("%w: first record has type %d, want meta", ErrSnapshotRecord, typ)
	}
	if err := decodeMsgpack(payload, &meta); err != nil {
		return nil, meta, fmt.Errorf("%w: meta: %v", ErrSnapshotRecord, err)
	}
	if meta.Schema < minStateSchema || meta.Schema > stateSchema {
		return nil, meta, fmt.Errorf("%w: %d (this build reads %d to %d)", ErrSnapshotSchema, meta.Schema, minStateSchema, stateSchema)
	}
	rs := &restorer{s: newState(), schema: meta.Schema, needs: meta.Needs}
	rs.s.lastChange = meta.LastChangeIndex
	for {
		typ, payload, err := sr.Next()
		if errors.Is(err, io.EOF) {
			rs.s.indexQueues()
			return rs.s, meta, nil
		}
		if err != nil {
			return nil, meta, err
		}
		if err := rs.record(typ, payload); err != nil {
			return nil, meta, err
		}
	}
}

// restorer fills a fresh state from records, rejecting duplicates.
type restorer struct {
	s      *state
	schema uint32
	// needs is the release the snapshot's writer said it needs.
	needs string
}

func (rs *restorer) record(typ uint8, payload []byte) error {
	var err error
	switch typ {
	case recCluster:
		err = restoreInto(payload, rs.cluster)
	case recBroker:
		err = restoreInto(payload, rs.broker)
	case recTopic:
		err = restoreInto(payload, rs.topic)
	case recRegistration:
		err = restoreInto(payload, rs.registration)
	case recFilter:
		err = restoreInto(payload, rs.filter)
	case recMapping:
		err = restoreInto(payload, rs.mapping)
	case recKVNamespace:
		err = restoreInto(payload, rs.kvNamespace)
	case recKV:
		err = restoreInto(payload, rs.kv)
	case recMember:
		err = restoreInto(payload, rs.member)
	case recMinIDNotice:
		err = restoreInto(payload, rs.minIDNotice)
	case recReplicaGroup:
		err = restoreInto(payload, rs.replicaGroup)
	case recSession:
		err = restoreInto(payload, rs.session)
	case recClusterVersion:
		err = restoreInto(payload, rs.clusterVersion)
	case recDrainingMember:
		err = restoreInto(payload, rs.drainingMember)
	case recAudit:
		err = restoreInto(payload, rs.auditRecord)
	case recMemberStanding:
		err = restoreInto(payload, rs.memberStanding)
	default:
		err = &feature.TooNewError{What: fmt.Sprintf("snapshot record type %d", typ), Needs: rs.needs}
	}
	if err != nil {
		return fmt.Errorf("%w: type %d: %w", ErrSnapshotRecord, typ, err)
	}
	return nil
}

// restoreInto decodes a payload into a fresh T and hands it to add.
func restoreInto[T any](payload []byte, add func(*T) error) error {
	var v T
	if err := decodeMsgpack(payload, &v); err != nil {
		return err
	}
	return add(&v)
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
func restoreTable[V any](s *state, tbl map[string]*owned[V], topic, what string, items []V, key func(V) string) error {
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
