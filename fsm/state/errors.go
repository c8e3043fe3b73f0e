package state

import "errors"

var (
	// ErrSnapshotRecord means a snapshot record is unknown, misplaced or
	// does not decode.
	ErrSnapshotRecord = errors.New("fsm: invalid snapshot record")
	// ErrSnapshotSchema means a snapshot was written with a state schema
	// this build does not know.
	ErrSnapshotSchema = errors.New("fsm: unsupported snapshot schema")
)
