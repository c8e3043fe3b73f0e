package state

// Snapshot record types. They live in snapshots on disk: only ever add new
// values; a retired one stays declared with a COMPAT reader in restore.go.
// Each is registered once in snapshotRecords (record_registry.go).
const (
	recMeta         uint8 = 1  // Meta, always first
	recCluster      uint8 = 2  // clusterRecord
	recBroker       uint8 = 3  // BrokerData
	recTopic        uint8 = 4  // topicRecord
	recRegistration uint8 = 5  // BrokerRegistration
	recFilter       uint8 = 6  // filterRecord
	recMapping      uint8 = 7  // mappingRecord
	recKVNamespace  uint8 = 8  // kvNamespaceRecord, before its keys
	recKV           uint8 = 9  // kvRecord
	recMember       uint8 = 10 // Member
	recMinIDNotice  uint8 = 11 // MinBrokerIDNotice (absent from older snapshots)
	recReplicaGroup uint8 = 12 // ReplicaGroup (schema 2)
	recSession      uint8 = 13 // sessionRecord (absent from older snapshots)
	// recClusterVersion (clusterVersionRecord) is written only once the
	// cluster version was raised, so that older releases refuse it.
	recClusterVersion uint8 = 14
	// recDrainingMember (DrainingMember) is written only while a member
	// drains.
	recDrainingMember uint8 = 15
	// recAudit (AuditRecord) is declared with the trail (audit_trail.go),
	// recSettings (settingsRecord) with the settings (settings.go),
	// recMemberStanding with the standings (member_standing.go).
)

// stateSchema versions the meaning of the records, independently of the
// container format of package snapshots. Schema 2 added the controller's
// replica groups (recReplicaGroup); a schema 1 snapshot has none and is
// read as a state without controller data.
const stateSchema = 2

// minStateSchema is the oldest schema this build restores.
const minStateSchema = 1

type Meta struct {
	Schema          uint32
	AppliedIndex    uint64
	LastChangeIndex uint64
	// Writer is the release that wrote the snapshot and Needs the oldest
	// release that reads it: the cluster version at the time (features
	// above it write nothing). Both are written only once the cluster
	// version was raised, so a cluster at the baseline writes the bytes it
	// always did; a reader names them when it refuses a record it does
	// not know.
	Writer string `codec:",omitempty"`
	Needs  string `codec:",omitempty"`
}

type clusterRecord struct {
	Name        string
	BrokerNames []string
}

type topicRecord struct {
	Topic  string
	Queues []QueueData // sorted by broker name
}

type filterRecord struct {
	Key   BrokerKey
	Addrs []string
}

type mappingRecord struct {
	Topic string
	Infos []TopicQueueMappingInfo // sorted by Bname, the table's key
}

type kvNamespaceRecord struct{ Namespace string }

type kvRecord struct{ Namespace, Key, Value string }

// emitFunc receives one record of the canonical stream.
type emitFunc func(recType uint8, v any) error

// walk emits every table of s as records in a canonical order (tables in
// record-type order as snapshotRecords lists them, keys sorted), which makes
// snapshots and digests deterministic. It reads s only.
func (s *State) walk(emit emitFunc) error {
	for _, r := range snapshotRecords {
		if r.walk == nil {
			continue
		}
		if err := r.walk(s, emit); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkClusters(emit emitFunc) error {
	for _, name := range sortedKeys(s.clusters) {
		if err := emit(recCluster, &clusterRecord{Name: name, BrokerNames: sortedKeys(s.clusters[name].m)}); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkBrokers(emit emitFunc) error {
	for _, name := range sortedKeys(s.brokers) {
		bd := s.brokers[name].data
		if err := emit(recBroker, &bd); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkTopics(emit emitFunc) error {
	for _, topic := range sortedKeys(s.topics) {
		t := s.topics[topic].m
		rec := &topicRecord{Topic: topic}
		for _, name := range sortedKeys(t) {
			rec.Queues = append(rec.Queues, t[name])
		}
		if err := emit(recTopic, rec); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkRegistrations(emit emitFunc) error {
	for _, key := range sortedBrokerKeys(s.regs) {
		reg := s.regs[key]
		if err := emit(recRegistration, &reg); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkFilters(emit emitFunc) error {
	for _, key := range sortedBrokerKeys(s.filters) {
		if err := emit(recFilter, &filterRecord{Key: key, Addrs: s.filters[key]}); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkMappings(emit emitFunc) error {
	for _, topic := range sortedKeys(s.mappings) {
		t := s.mappings[topic].m
		rec := &mappingRecord{Topic: topic}
		for _, name := range sortedKeys(t) {
			rec.Infos = append(rec.Infos, t[name])
		}
		if err := emit(recMapping, rec); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkKV(emit emitFunc) error {
	for _, ns := range sortedKeys(s.kv) {
		if err := emit(recKVNamespace, &kvNamespaceRecord{Namespace: ns}); err != nil {
			return err
		}
		t := s.kv[ns].m
		for _, k := range sortedKeys(t) {
			if err := emit(recKV, &kvRecord{Namespace: ns, Key: k, Value: t[k]}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *State) walkMembers(emit emitFunc) error {
	for _, id := range sortedKeys(s.members) {
		m := s.members[id]
		if err := emit(recMember, &m); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkReplicaGroups(emit emitFunc) error {
	for _, name := range sortedKeys(s.ctrl) {
		if err := emit(recReplicaGroup, s.ctrl[name]); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) walkSessions(emit emitFunc) error {
	for _, name := range sortedKeys(s.sessions) {
		if err := emit(recSession, &sessionRecord{Name: name, session: s.sessions[name]}); err != nil {
			return err
		}
	}
	return nil
}
