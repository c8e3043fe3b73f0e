package state

import "fmt"

// table is one replicated table of a state version. Each is declared in a
// file of its own (table_*.go), with its record types, its empty version,
// its slot (slotOf) and a typed accessor on State, and is registered once
// in tableRegistry.
type table interface {
	// thaw returns the table of a writable successor version: a copy that
	// shares with the frozen one what copy-on-write lets them share (inner
	// tables with their owner, values never changed in place).
	thaw() table
	// walk emits the table's records, keys sorted. It reads the table only.
	walk(emit emitFunc) error
	// restore decodes one record of a kind the table registers (typ) and
	// adds it to the state rs fills, refusing a duplicate or a record that
	// contradicts the others.
	restore(rs *restorer, typ uint8, payload []byte) error
}

// tableSpec registers a table: its empty version and the kinds of record
// its walk writes, each with its name in tools that summarise a snapshot
// (RecordTypeName).
type tableSpec struct {
	empty   func() table
	records []recordKind
}

type recordKind struct {
	typ  uint8
	name string
}

// tableRegistry is the registry of tables, in the order of the canonical
// record stream (ascending record type, which tests check); a table's
// place here is its slot in State.tables. A new table is a file that
// declares it and one line here: New, thaw, Write, Read and Digest loop
// over the registry. The meta record (recMeta) is not a table's and is
// handled by Freeze, Write and Read.
var tableRegistry = []tableSpec{
	{newClusters, []recordKind{{recCluster, "cluster"}}},
	{newBrokers, []recordKind{{recBroker, "broker"}}},
	{newTopics, []recordKind{{recTopic, "topic"}}},
	{newRegistrations, []recordKind{{recRegistration, "registration"}}},
	{newFilters, []recordKind{{recFilter, "filter-server"}}},
	{newMappings, []recordKind{{recMapping, "queue-mapping"}}},
	{newKV, []recordKind{{recKVNamespace, "kv-namespace"}, {recKV, "kv"}}},
	{newMembers, []recordKind{{recMember, "member"}}},
	{newMinIDNotices, []recordKind{{recMinIDNotice, "min-id-notice"}}},
	{newReplicaGroups, []recordKind{{recReplicaGroup, "replica-group"}}},
	{newSessions, []recordKind{{recSession, "session"}}},
	{newClusterVersion, []recordKind{{recClusterVersion, "cluster-version"}}},
	{newDraining, []recordKind{{recDrainingMember, "draining-member"}}},
	{newAudit, []recordKind{{recAudit, "audit"}}},
	{newSettings, []recordKind{{recSettings, "settings"}}},
	{newStandings, []recordKind{{recMemberStanding, "member-standing"}}},
}

// slotOf is the slot of the registered table of type T: the index of its
// table in State.tables, which its accessor reads without a lookup.
func slotOf[T table]() int {
	for i, spec := range tableRegistry {
		if _, ok := spec.empty().(T); ok {
			return i
		}
	}
	panic(fmt.Sprintf("state: table %T is not in tableRegistry", *new(T)))
}

// recordSlot is a registered record kind with the slot of its table.
type recordSlot struct {
	slot int
	name string
}

// snapshotRecordByType indexes the registered record kinds for Read and
// RecordTypeName.
var snapshotRecordByType = func() map[uint8]recordSlot {
	m := map[uint8]recordSlot{}
	for slot, spec := range tableRegistry {
		for _, k := range spec.records {
			m[k.typ] = recordSlot{slot: slot, name: k.name}
		}
	}
	return m
}()
