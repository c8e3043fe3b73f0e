package fsm

// snapshotRecord is one kind of snapshot record: its type byte, how a
// state writes its table as records of the kind, and how one record is
// read back into a fresh state.
type snapshotRecord struct {
	typ uint8
	// name names the kind in tools that summarise a snapshot
	// (RecordTypeName).
	name string
	// walk emits the table's records, keys sorted; nil for a kind another
	// entry's walk writes (a KV key with its namespace).
	walk func(s *state, emit emitFunc) error
	// restore decodes one record and adds it to the state being restored,
	// refusing a duplicate or a record that contradicts the others.
	restore func(rs *restorer, payload []byte) error
}

// snapshotRecords is the registry of snapshot records, in the order of the
// canonical stream (ascending type, which tests check). A new table is a
// file that declares its record type, record, walk and restore, and one
// line here; Snapshot and Restore need nothing else. The meta record
// (recMeta) is not a table and is handled by Snapshot and readState.
var snapshotRecords = []snapshotRecord{
	{recCluster, "cluster", (*state).walkClusters, restoreAs((*restorer).cluster)},
	{recBroker, "broker", (*state).walkBrokers, restoreAs((*restorer).broker)},
	{recTopic, "topic", (*state).walkTopics, restoreAs((*restorer).topic)},
	{recRegistration, "registration", (*state).walkRegistrations, restoreAs((*restorer).registration)},
	{recFilter, "filter-server", (*state).walkFilters, restoreAs((*restorer).filter)},
	{recMapping, "queue-mapping", (*state).walkMappings, restoreAs((*restorer).mapping)},
	{recKVNamespace, "kv-namespace", (*state).walkKV, restoreAs((*restorer).kvNamespace)},
	{recKV, "kv", nil, restoreAs((*restorer).kv)}, // walked with its namespace
	{recMember, "member", (*state).walkMembers, restoreAs((*restorer).member)},
	{recMinIDNotice, "min-id-notice", (*state).walkMinIDNotices, restoreAs((*restorer).minIDNotice)},
	{recReplicaGroup, "replica-group", (*state).walkReplicaGroups, restoreAs((*restorer).replicaGroup)},
	{recSession, "session", (*state).walkSessions, restoreAs((*restorer).session)},
	{recClusterVersion, "cluster-version", (*state).walkClusterVersion, restoreAs((*restorer).clusterVersion)},
	{recDrainingMember, "draining-member", (*state).walkDraining, restoreAs((*restorer).drainingMember)},
	{recAudit, "audit", (*state).walkAudit, restoreAs((*restorer).auditRecord)},
	{recSettings, "settings", (*state).walkSettings, restoreAs((*restorer).settingsRecord)},
	{recMemberStanding, "member-standing", (*state).walkStandings, restoreAs((*restorer).memberStanding)},
}

// snapshotRecordByType indexes snapshotRecords for Restore.
var snapshotRecordByType = func() map[uint8]*snapshotRecord {
	m := make(map[uint8]*snapshotRecord, len(snapshotRecords))
	for i := range snapshotRecords {
		m[snapshotRecords[i].typ] = &snapshotRecords[i]
	}
	return m
}()

// restoreAs returns the restore of a record kind whose payload decodes
// into a T that add takes.
func restoreAs[T any](add func(*restorer, *T) error) func(*restorer, []byte) error {
	return func(rs *restorer, payload []byte) error {
		var v T
		if err := decodeMsgpack(payload, &v); err != nil {
			return err
		}
		return add(rs, &v)
	}
}
