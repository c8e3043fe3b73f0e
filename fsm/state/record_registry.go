package state

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
	walk func(s *State, emit emitFunc) error
	// restore decodes one record and adds it to the state being restored,
	// refusing a duplicate or a record that contradicts the others.
	restore func(rs *restorer, payload []byte) error
}

// snapshotRecords is the registry of snapshot records, in the order of the
// canonical stream (ascending type, which tests check). A new table is a
// file that declares its record type, record, walk and restore, and one
// line here; Snapshot and Restore need nothing else. The meta record
// (recMeta) is not a table and is handled by Freeze, Write and Read.
var snapshotRecords = []snapshotRecord{
	{recCluster, "cluster", (*State).walkClusters, restoreAs((*restorer).cluster)},
	{recBroker, "broker", (*State).walkBrokers, restoreAs((*restorer).broker)},
	{recTopic, "topic", (*State).walkTopics, restoreAs((*restorer).topic)},
	{recRegistration, "registration", (*State).walkRegistrations, restoreAs((*restorer).registration)},
	{recFilter, "filter-server", (*State).walkFilters, restoreAs((*restorer).filter)},
	{recMapping, "queue-mapping", (*State).walkMappings, restoreAs((*restorer).mapping)},
	{recKVNamespace, "kv-namespace", (*State).walkKV, restoreAs((*restorer).kvNamespace)},
	{recKV, "kv", nil, restoreAs((*restorer).kv)}, // walked with its namespace
	{recMember, "member", (*State).walkMembers, restoreAs((*restorer).member)},
	{recMinIDNotice, "min-id-notice", (*State).walkMinIDNotices, restoreAs((*restorer).minIDNotice)},
	{recReplicaGroup, "replica-group", (*State).walkReplicaGroups, restoreAs((*restorer).replicaGroup)},
	{recSession, "session", (*State).walkSessions, restoreAs((*restorer).session)},
	{recClusterVersion, "cluster-version", (*State).walkClusterVersion, restoreAs((*restorer).clusterVersion)},
	{recDrainingMember, "draining-member", (*State).walkDraining, restoreAs((*restorer).drainingMember)},
	{recAudit, "audit", (*State).walkAudit, restoreAs((*restorer).auditRecord)},
	{recSettings, "settings", (*State).walkSettings, restoreAs((*restorer).settingsRecord)},
	{recMemberStanding, "member-standing", (*State).walkStandings, restoreAs((*restorer).memberStanding)},
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
		if err := DecodeMsgpack(payload, &v); err != nil {
			return err
		}
		return add(rs, &v)
	}
}
