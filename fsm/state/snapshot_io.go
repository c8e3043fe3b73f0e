package state

import (
	"errors"
	"fmt"
	"io"

	"github.com/raftns/raftns/snapshots"
)

// Read reads a whole snapshot into a fresh state: the meta record first,
// then the tables' records, each restored by the table that registers its
// kind. A damaged, unknown-schema or inconsistent snapshot is an
// error.
func Read(r io.Reader) (*State, Meta, error) {
	var meta Meta
	sr, err := snapshots.NewReader(r)
	if err != nil {
		return nil, meta, err
	}
	typ, payload, err := sr.Next()
	if err != nil {
		return nil, meta, err
	}
	if typ != recMeta {
		return nil, meta, fmt.Errorf("%w: first record has type %d, want meta", ErrSnapshotRecord, typ)
	}
	if err := DecodeMsgpack(payload, &meta); err != nil {
		return nil, meta, fmt.Errorf("%w: meta: %v", ErrSnapshotRecord, err)
	}
	if meta.Schema < minStateSchema || meta.Schema > stateSchema {
		return nil, meta, fmt.Errorf("%w: %d (this build reads %d to %d)", ErrSnapshotSchema, meta.Schema, minStateSchema, stateSchema)
	}
	rs := &restorer{s: New(), schema: meta.Schema, needs: meta.Needs}
	rs.s.lastChange = meta.LastChangeIndex
	for {
		typ, payload, err := sr.Next()
		if errors.Is(err, io.EOF) {
			return rs.s, meta, nil
		}
		if err != nil {
			return nil, meta, err
		}
		if err := rs.record(typ, payload); err != nil {
			return nil, meta, err
		}
	}
}

// Write writes a snapshot of s, which Freeze froze, in the snapshots
// format: meta, then every table as records.
func (s *State) Write(w io.Writer, meta Meta) error {
	sw, err := snapshots.NewWriter(w)
	if err != nil {
		return err
	}
	emit := func(recType uint8, v any) error {
		payload, err := EncodeMsgpack(v)
		if err != nil {
			return fmt.Errorf("encode record %d: %w", recType, err)
		}
		return sw.WriteRecord(recType, payload)
	}
	if err := emit(recMeta, &meta); err != nil {
		return err
	}
	if err := s.walk(emit); err != nil {
		return err
	}
	return sw.Close()
}

// Freeze makes s a frozen version, never changed again, and returns the
// meta record of its snapshot at applied; writer is the release that
// writes it, named only once the cluster version was raised. The next
// write goes to Writable's successor.
func (s *State) Freeze(applied uint64, writer string) Meta {
	s.frozen = true
	meta := Meta{Schema: stateSchema, AppliedIndex: applied, LastChangeIndex: s.lastChange}
	if *s.clusterVer() != "" {
		meta.Writer, meta.Needs = writer, *s.clusterVer()
	}
	return meta
}

// Writable returns s, or when a snapshot froze it a writable successor
// that shares its inner tables until they are written (thaw).
func (s *State) Writable() *State {
	if s.frozen {
		return s.thaw()
	}
	return s
}
