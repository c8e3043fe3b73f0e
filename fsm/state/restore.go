package state

import (
	"fmt"

	"github.com/raftns/raftns/internal/feature"
)

// restorer fills a fresh state from records, rejecting duplicates.
type restorer struct {
	s      *State
	schema uint32
	// needs is the release the snapshot's writer said it needs.
	needs string
}

// record restores one record of a kind tableRegistry registers into its
// table; any other kind is from a newer release.
func (rs *restorer) record(typ uint8, payload []byte) error {
	var err error
	if k, ok := snapshotRecordByType[typ]; ok {
		err = rs.s.tables[k.slot].restore(rs, typ, payload)
	} else {
		err = &feature.TooNewError{What: fmt.Sprintf("snapshot record type %d", typ), Needs: rs.needs}
	}
	if err != nil {
		return fmt.Errorf("%w: type %d: %w", ErrSnapshotRecord, typ, err)
	}
	return nil
}

// decode decodes a record's payload into a new T.
func decode[T any](payload []byte) (*T, error) {
	v := new(T)
	if err := DecodeMsgpack(payload, v); err != nil {
		return nil, err
	}
	return v, nil
}

func duplicate(what string, key any) error { return fmt.Errorf("duplicate %s %v", what, key) }

// restoreTable makes the inner table of topic in tbl and puts each of
// items in it under its key, refusing a key seen twice.
func restoreTable[V any](s *State, tbl map[string]*owned[V], topic, what string, items []V, key func(V) string) error {
	t := writable(s, tbl, topic, true)
	for _, v := range items {
		k := key(v)
		if _, ok := t.m[k]; ok {
			return duplicate(what+" of topic "+topic, k)
		}
		t.m[k] = v
	}
	return nil
}
