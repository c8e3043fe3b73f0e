package state

import "maps"

// state is one version of the replicated tables. The FSM mutates its current
// state in place until a snapshot freezes it; the next write then works on a
// thawed copy whose top-level maps are copied and whose inner tables are
// shared until first written (copy-on-write, see owned). A frozen state is
// never changed again, so a snapshot can stream it without holding a lock.
type State struct {
	frozen bool
	// version names this state version as the writer of the inner tables
	// it made or copied.
	version *version

	// Java RouteInfoManager tables.
	topics   map[string]*queueTable           // topicQueueTable: topic -> brokerName -> QueueData
	byBroker map[string]*nameSet              // brokerName -> the topics with its queue data (queue_index.go)
	brokers  map[string]*brokerGroup          // brokerAddrTable: brokerName -> BrokerData
	clusters map[string]*nameSet              // clusterAddrTable: cluster -> broker names
	regs     map[BrokerKey]BrokerRegistration // brokerLiveTable, replicated part
	filters  map[BrokerKey][]string           // filterServerTable; slices never mutated
	mappings map[string]*mappingTable         // topicQueueMappingInfoTable: topic -> brokerName -> info

	kv      map[string]*kvTable // KVConfigManager.configTable: namespace -> key -> value
	members map[string]Member   // member directory by Raft id
	// draining are the members being removed, by Raft id.
	draining map[string]DrainingMember
	// standings are the members' storage identities and roles, by Raft id
	// (member_standing.go).
	standings map[string]MemberStanding

	// minIDNotices are the NOTIFY_MIN_BROKER_ID_CHANGE notices the leader
	// has not sent yet, by broker name (values never mutated in place).
	minIDNotices map[string]MinBrokerIDNotice

	ctrl map[string]*ReplicaGroup // controller: brokerName -> group; values never mutated in place

	// sessions remembers applied requests per session (sessions.go). A
	// session's table of answers is changed in place only by the state
	// version named in ownedSessions, which made it.
	sessions      map[string]session
	ownedSessions map[string]struct{}

	// lastChange is the log index of the last entry that changed the state.
	lastChange uint64

	// clusterVer is the raised cluster version ("" until then;
	// cluster_version.go).
	clusterVer string

	// audit is the audit trail (audit_trail.go).
	audit auditTrail

	// settings are the run-time settings the cluster holds, by scope
	// (settings.go).
	settings map[string]clusterSettings
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

// brokerGroup is a BrokerData with the state version that may write it.
type brokerGroup struct {
	owner *version
	data  BrokerData
}

func New() *State {
	return &State{
		version:   &version{},
		topics:    map[string]*queueTable{},
		byBroker:  map[string]*nameSet{},
		brokers:   map[string]*brokerGroup{},
		clusters:  map[string]*nameSet{},
		regs:      map[BrokerKey]BrokerRegistration{},
		filters:   map[BrokerKey][]string{},
		mappings:  map[string]*mappingTable{},
		kv:        map[string]*kvTable{},
		members:   map[string]Member{},
		draining:  map[string]DrainingMember{},
		settings:  map[string]clusterSettings{},
		standings: map[string]MemberStanding{},

		minIDNotices: map[string]MinBrokerIDNotice{},
		ctrl:         map[string]*ReplicaGroup{},
		sessions:     map[string]session{},

		ownedSessions: map[string]struct{}{},
	}
}

// thaw returns a writable successor of a frozen state: top-level maps are
// copied, inner tables stay shared and are copied when first written.
func (s *State) thaw() *State {
	return &State{
		version:   &version{},
		topics:    maps.Clone(s.topics),
		byBroker:  maps.Clone(s.byBroker),
		brokers:   maps.Clone(s.brokers),
		clusters:  maps.Clone(s.clusters),
		regs:      maps.Clone(s.regs),
		filters:   maps.Clone(s.filters),
		mappings:  maps.Clone(s.mappings),
		kv:        maps.Clone(s.kv),
		members:   maps.Clone(s.members),
		draining:  maps.Clone(s.draining),
		settings:  maps.Clone(s.settings),
		standings: maps.Clone(s.standings),

		minIDNotices: maps.Clone(s.minIDNotices),
		sessions:     maps.Clone(s.sessions),
		lastChange:   s.lastChange,
		ctrl:         copyMap(s.ctrl),
		clusterVer:   s.clusterVer,
		audit:        s.audit,

		ownedSessions: map[string]struct{}{},
	}
}

func copyMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

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
	g, ok := s.brokers[name]
	if !ok {
		return nil
	}
	if g.owner != s.version {
		g = &brokerGroup{owner: s.version, data: cloneBrokerData(g.data)}
		s.brokers[name] = g
	}
	return &g.data
}

// putGroup stores a BrokerData the caller no longer touches.
func (s *State) putGroup(bd BrokerData) {
	s.brokers[bd.BrokerName] = &brokerGroup{owner: s.version, data: bd}
}

// Queue returns the QueueData of brokerName for topic.
func (s *State) Queue(topic, brokerName string) (QueueData, bool) {
	t, ok := s.topics[topic]
	if !ok {
		return QueueData{}, false
	}
	qd, ok := t.m[brokerName]
	return qd, ok
}

// inCluster reports whether clusterAddrTable[cluster] holds brokerName.
func (s *State) inCluster(cluster, brokerName string) bool {
	ns, ok := s.clusters[cluster]
	if !ok {
		return false
	}
	_, ok = ns.m[brokerName]
	return ok
}

// namespace returns the KV namespace table, or nil.
func (s *State) namespace(ns string) map[string]string {
	if t, ok := s.kv[ns]; ok {
		return t.m
	}
	return nil
}

// LastChange is the log index of the last entry that changed the state.
func (s *State) LastChange() uint64 { return s.lastChange }

// MarkChanged records that the entry at index changed the state.
func (s *State) MarkChanged(index uint64) { s.lastChange = index }
