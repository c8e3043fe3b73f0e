package state

import (
	"bytes"
	"testing"

	"github.com/raftns/raftns/snapshots"
)

// Test fixtures in the reference tests' style (RouteInfoManagerNewTest).
const (
	cluster    = "DefaultCluster"
	brokerA    = "broker-a"
	masterAddr = "10.0.0.1:10911"
)

type record struct {
	typ uint8
	v   any
}

func rec(typ uint8, v any) record { return record{typ, v} }

// buildSnapshot writes recs, msgpack-encoded, in the snapshots format.
func buildSnapshot(t *testing.T, recs ...record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := snapshots.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		payload, err := EncodeMsgpack(r.v)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRecord(r.typ, payload); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// buildSnapshotRaw writes one record with a raw payload.
func buildSnapshotRaw(t *testing.T, typ uint8, payload []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := snapshots.NewWriter(&buf)
	if err := w.WriteRecord(typ, payload); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
