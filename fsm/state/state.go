package state

import "maps"

// State is one version of the replicated tables. The FSM mutates its
// current state in place until a snapshot freezes it (Freeze); the next
// write then works on a thawed successor (Writable) whose tables are copied
// at the top and whose inner tables are shared until first written
// (copy-on-write, see owned). A frozen state is never changed again, so a
// snapshot can stream it without holding a lock.
type State struct {
	frozen bool
	// version names this state version as the writer of the inner tables
	// it made or copied.
	version *version
	// tables are the replicated tables, one per entry of tableRegistry at
	// its slot; each table's file reads its own through a typed accessor.
	tables []table
	// lastChange is the log index of the last entry that changed the state.
	lastChange uint64
}

// New returns an empty state.
func New() *State {
	s := &State{version: &version{}, tables: make([]table, len(tableRegistry))}
	for i, spec := range tableRegistry {
		s.tables[i] = spec.empty()
	}
	return s
}

// thaw returns a writable successor of a frozen state: every table thaws
// (copied at the top, inner tables shared until written).
func (s *State) thaw() *State {
	next := &State{version: &version{}, tables: make([]table, len(s.tables)), lastChange: s.lastChange}
	for i, t := range s.tables {
		next.tables[i] = t.thaw()
	}
	return next
}

// version identifies one state version. Inner tables name their writer by
// it rather than by the *State: a table that later versions share would
// otherwise keep the version that made it alive, and through that version's
// maps every older table and version, so memory would grow with every
// snapshot for as long as any table lives unchanged.
type version struct{ _ byte }

// owned is an inner table with the state version that may write it in place.
type owned[V any] struct {
	owner *version
	m     map[string]V
}

type (
	queueTable   = owned[QueueData]
	nameSet      = owned[struct{}]
	mappingTable = owned[TopicQueueMappingInfo] // values are never mutated in place
	kvTable      = owned[string]
)

// writable returns tbl[key] owned by s, copying a shared one first; with
// create it makes a missing one, otherwise it returns nil for it.
func writable[V any](s *State, tbl map[string]*owned[V], key string, create bool) *owned[V] {
	t, ok := tbl[key]
	switch {
	case !ok && !create:
		return nil
	case !ok:
		t = &owned[V]{owner: s.version, m: map[string]V{}}
	case t.owner != s.version:
		t = &owned[V]{owner: s.version, m: maps.Clone(t.m)}
	default:
		return t
	}
	tbl[key] = t
	return t
}

// group returns the writable BrokerData of name, copying a shared one, or nil.
func (s *State) group(name string) *BrokerData {
	g, ok := s.brokers()[name]
	if !ok {
		return nil
	}
	if g.owner != s.version {
		g = &brokerGroup{owner: s.version, data: cloneBrokerData(g.data)}
		s.brokers()[name] = g
	}
	return &g.data
}

// putGroup stores a BrokerData the caller no longer touches.
func (s *State) putGroup(bd BrokerData) {
	s.brokers()[bd.BrokerName] = &brokerGroup{owner: s.version, data: bd}
}

// Queue returns the QueueData of brokerName for topic.
func (s *State) Queue(topic, brokerName string) (QueueData, bool) {
	t, ok := s.topics()[topic]
	if !ok {
		return QueueData{}, false
	}
	qd, ok := t.m[brokerName]
	return qd, ok
}

// inCluster reports whether clusterAddrTable[cluster] holds brokerName.
func (s *State) inCluster(cluster, brokerName string) bool {
	ns, ok := s.clusters()[cluster]
	if !ok {
		return false
	}
	_, ok = ns.m[brokerName]
	return ok
}

// namespace returns the KV namespace table, or nil.
func (s *State) namespace(ns string) map[string]string {
	if t, ok := s.kv()[ns]; ok {
		return t.m
	}
	return nil
}

// LastChange is the log index of the last entry that changed the state.
func (s *State) LastChange() uint64 { return s.lastChange }

// MarkChanged records that the entry at index changed the state.
func (s *State) MarkChanged(index uint64) { s.lastChange = index }
