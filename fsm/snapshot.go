package fsm

import (
	"fmt"
	"io"

	"github.com/raftns/raftns/fsm/state"

	"github.com/raftns/raftns/internal/buildinfo"
)

// Snapshot is a frozen state version and the indexes it stands for.
type Snapshot struct {
	st   *state.State
	meta state.Meta
}

// SnapshotSink is where Persist writes a snapshot: a file Raft keeps,
// which Close completes and Cancel abandons.
type SnapshotSink interface {
	io.Writer
	Close() error
	Cancel() error
}

// Snapshot freezes the current state and returns at once (a halted FSM
// takes none); the next apply writes to a copy-on-write successor, so
// Persist can stream the frozen version while applies go on.
func (f *FSM) Snapshot() (*Snapshot, error) {
	if err := f.Halted(); err != nil {
		// Raft would label the snapshot with its own applied index, past
		// the entry this FSM did not apply.
		return nil, fmt.Errorf("%w: %w", ErrHalted, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	meta := f.st.Freeze(f.applied.Load(), writerRelease)
	return &Snapshot{st: f.st, meta: meta}, nil
}

// writerRelease is the release snapshots say wrote them; tests that
// re-persist a fixture of an earlier release set it to that release.
var writerRelease = buildinfo.Release

// Persist streams the snapshot to sink in the snapshots format and closes
// it; on any error it cancels the sink.
func (s *Snapshot) Persist(sink SnapshotSink) error {
	if err := s.st.Write(sink, s.meta); err != nil {
		_ = sink.Cancel()
		return fmt.Errorf("fsm: persist snapshot: %w", err)
	}
	return sink.Close()
}

// Release drops the reference to the frozen state.
func (s *Snapshot) Release() { s.st = nil }
