package fsm

// recordTypeNames names every snapshot record type this release writes,
// for tools that summarise a snapshot (raftnsctl snapshot inspect).
var recordTypeNames = map[uint8]string{
	recMeta: "meta", recCluster: "cluster", recBroker: "broker", recTopic: "topic",
	recRegistration: "registration", recFilter: "filter-server", recMapping: "queue-mapping",
	recKVNamespace: "kv-namespace", recKV: "kv", recMember: "member", recMinIDNotice: "min-id-notice",
	recReplicaGroup: "replica-group", recSession: "session", recClusterVersion: "cluster-version",
	recDrainingMember: "draining-member", recAudit: "audit",
}

// RecordTypeName names a snapshot record type; false for a type this
// release does not know (written by a newer one).
func RecordTypeName(t uint8) (string, bool) {
	n, ok := recordTypeNames[t]
	return n, ok
}
