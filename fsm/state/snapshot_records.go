package state

// Snapshot record types live in snapshots on disk: only ever add new
// values; a retired one stays declared with a COMPAT reader in its table's
// restore. Each table declares its own (table_*.go) and registers them in
// tableRegistry (record_registry.go); the meta record is the state's.
const recMeta uint8 = 1 // Meta, always first

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

// emitFunc receives one record of the canonical stream.
type emitFunc func(recType uint8, v any) error

// walk emits every table of s as records in a canonical order (tables in
// record-type order as tableRegistry lists them, keys sorted), which makes
// snapshots and digests deterministic. It reads s only.
func (s *State) walk(emit emitFunc) error {
	for _, t := range s.tables {
		if err := t.walk(emit); err != nil {
			return err
		}
	}
	return nil
}
