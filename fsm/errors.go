package fsm

import (
	"errors"

	"github.com/raftns/raftns/fsm/state"
)

var (
	// ErrEmptyCommand means a log entry has no type byte.
	ErrEmptyCommand = errors.New("fsm: empty command")
	// ErrUnknownCommandType means the type byte is not in the vocabulary.
	ErrUnknownCommandType = errors.New("fsm: unknown command type")
	// ErrCommandMismatch means Encode got a value of the wrong Go type.
	ErrCommandMismatch = errors.New("fsm: command value does not match its type")
	// ErrDecodeCommand means a command payload does not decode.
	ErrDecodeCommand = errors.New("fsm: cannot decode command")
	// ErrSnapshotRecord means a snapshot record is unknown, misplaced or
	// does not decode.
	ErrSnapshotRecord = state.ErrSnapshotRecord
	// ErrSnapshotSchema means a snapshot was written with a state schema
	// this build does not know.
	ErrSnapshotSchema = state.ErrSnapshotSchema
)
