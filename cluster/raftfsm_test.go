package cluster

import (
	"bytes"
	"io"
	"testing"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// memSink is a raft.SnapshotSink in memory.
type memSink struct{ bytes.Buffer }

func (s *memSink) ID() string    { return "mem" }
func (s *memSink) Close() error  { return nil }
func (s *memSink) Cancel() error { return nil }

// The adapter applies command entries only; every entry advances the
// applied index, and a snapshot persisted through it restores the state.
func TestRaftFSM_AppliesCommandsAndRoundTripsSnapshots(t *testing.T) {
	put, err := fsm.Encode(fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "v", HasValue: true})
	if err != nil {
		t.Fatal(err)
	}
	f := fsm.New(nil)
	r := raftFSM{f}
	r.ApplyBatch([]*raft.Log{
		{Index: 1, Type: raft.LogConfiguration, Data: put},
		{Index: 2, Type: raft.LogNoop, Data: put},
		{Index: 3, Type: raft.LogBarrier, Data: put},
	})
	if _, ok := f.KV("ns", "k"); ok || f.AppliedIndex() != 3 {
		t.Fatalf("non-command entries: key set %v, applied index %d; want no key and index 3", ok, f.AppliedIndex())
	}
	r.Apply(&raft.Log{Index: 4, Type: raft.LogCommand, Data: put})
	if v, ok := f.KV("ns", "k"); !ok || v != "v" || f.AppliedIndex() != 4 {
		t.Fatalf("command entry: key %q/%v, applied index %d; want v and index 4", v, ok, f.AppliedIndex())
	}
	snap, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var sink memSink
	if err := snap.Persist(&sink); err != nil {
		t.Fatal(err)
	}
	snap.Release()
	restored := raftFSM{fsm.New(nil)}
	if err := restored.Restore(io.NopCloser(&sink.Buffer)); err != nil {
		t.Fatal(err)
	}
	if v, ok := restored.f.KV("ns", "k"); !ok || v != "v" || restored.f.AppliedIndex() != 4 {
		t.Fatalf("restored: key %q/%v, applied index %d; want v and index 4", v, ok, restored.f.AppliedIndex())
	}
}
