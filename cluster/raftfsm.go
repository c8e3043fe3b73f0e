package cluster

import (
	"io"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
)

// raftFSM is the FSM as hashicorp/raft drives it: it hands the library's
// log entries and snapshot sinks to package fsm, which does not depend on
// the Raft library.
type raftFSM struct{ f *fsm.FSM }

var (
	_ raft.FSM         = raftFSM{}
	_ raft.BatchingFSM = raftFSM{}
)

func (r raftFSM) Apply(l *raft.Log) any { return r.f.Apply(fsmEntry(l)) }

func (r raftFSM) ApplyBatch(logs []*raft.Log) []any {
	entries := make([]fsm.Entry, len(logs))
	for i, l := range logs {
		entries[i] = fsmEntry(l)
	}
	return r.f.ApplyBatch(entries)
}

func (r raftFSM) Snapshot() (raft.FSMSnapshot, error) {
	s, err := r.f.Snapshot()
	if err != nil {
		return nil, err
	}
	return raftSnapshot{s}, nil
}

func (r raftFSM) Restore(rc io.ReadCloser) error { return r.f.Restore(rc) }

// fsmEntry is l as the FSM applies it.
func fsmEntry(l *raft.Log) fsm.Entry {
	return fsm.Entry{Index: l.Index, Command: l.Type == raft.LogCommand, Data: l.Data}
}

// raftSnapshot is an FSM snapshot as hashicorp/raft persists it.
type raftSnapshot struct{ s *fsm.Snapshot }

func (r raftSnapshot) Persist(sink raft.SnapshotSink) error { return r.s.Persist(sink) }

func (r raftSnapshot) Release() { r.s.Release() }
