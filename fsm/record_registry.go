package fsm

// snapshotRecord is one kind of snapshot record: its type byte, how a
// state writes its table as records of the kind, and how one record is
// read back into a fresh state.
type snapshotRecord struct {
	typ uint8
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
	{recCluster, (*state).walkClusters, restoreAs((*restorer).cluster)},
	{recBroker, (*state).walkBrokers, restoreAs((*restorer).broker)},
	{recTopic, (*state).walkTopics, restoreAs((*restorer).topic)},
	{recRegistration, (*state).walkRegistrations, restoreAs((*restorer).registration)},
	{recFilter, (*state).walkFilters, restoreAs((*restorer).filter)},
	{recMapping, (*state).walkMappings, restoreAs((*restorer).mapping)},
	{recKVNamespace, (*state).walkKV, restoreAs((*restorer).kvNamespace)},
	{recKV, nil, restoreAs((*restorer).kv)}, // walked with its namespace
	{recMember, (*state).walkMembers, restoreAs((*restorer).member)},
	{recMinIDNotice, (*state).walkMinIDNotices, restoreAs((*restorer).minIDNotice)},
	{recReplicaGroup, (*state).walkReplicaGroups, restoreAs((*restorer).replicaGroup)},
	{recSession, (*state).walkSessions, restoreAs((*restorer).session)},
	{recClusterVersion, (*state).walkClusterVersion, restoreAs((*restorer).clusterVersion)},
	{recDrainingMember, (*state).walkDraining, restoreAs((*restorer).drainingMember)},
	{recAudit, (*state).walkAudit, restoreAs((*restorer).auditRecord)},
	{recSettings, (*state).walkSettings, restoreAs((*restorer).settingsRecord)},
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
