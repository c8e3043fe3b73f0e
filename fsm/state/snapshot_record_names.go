package state

// RecordTypeName names a snapshot record type this release writes, for
// tools that summarise a snapshot (raftnsctl snapshot inspect); false for
// a type this release does not know (written by a newer one).
func RecordTypeName(t uint8) (string, bool) {
	if t == recMeta {
		return "meta", true
	}
	if r, ok := snapshotRecordByType[t]; ok {
		return r.name, true
	}
	return "", false
}
