package fsm

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/raftns/raftns/snapshots"
)

func TestFSM_Restore_RejectsBadSnapshots(t *testing.T) {
	good := snapshotBytes(t, fixtureFSM(t))
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	version := bytes.Clone(good)
	version[5] = 9
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"flipped byte", flipped, nil},
		{"truncated", good[:len(good)-3], snapshots.ErrTruncated},
		{"unknown format version", version, snapshots.ErrUnsupportedVersion},
		{"not a snapshot", []byte(`{"configTable":{}}`), snapshots.ErrBadMagic},
		{"no meta record", buildSnapshot(t, rec(recMember, &Member{ID: "x"})), ErrSnapshotRecord},
		{"unknown schema", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: stateSchema + 1})), ErrSnapshotSchema},
		{"replica group in schema 1", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}),
			rec(recReplicaGroup, &ReplicaGroup{BrokerName: brokerA})), ErrSnapshotRecord},
		{"unknown record type", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}), rec(200, &Member{})), ErrSnapshotRecord},
		{"duplicate member", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}),
			rec(recMember, &Member{ID: "x"}), rec(recMember, &Member{ID: "x"})), ErrSnapshotRecord},
		{"duplicate topic", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}),
			rec(recTopic, &topicRecord{Topic: "t", Queues: []QueueData{{BrokerName: "a"}}}),
			rec(recTopic, &topicRecord{Topic: "t", Queues: []QueueData{{BrokerName: "b"}}})), ErrSnapshotRecord},
		{"empty topic", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}), rec(recTopic, &topicRecord{Topic: "t"})), ErrSnapshotRecord},
		{"duplicate queue data", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}),
			rec(recTopic, &topicRecord{Topic: "t", Queues: []QueueData{{BrokerName: "a"}, {BrokerName: "a", Perm: 4}}})), ErrSnapshotRecord},
		{"duplicate mapping topic", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}),
			rec(recMapping, &mappingRecord{Topic: "t", Infos: []TopicQueueMappingInfo{{Bname: "a"}}}),
			rec(recMapping, &mappingRecord{Topic: "t", Infos: []TopicQueueMappingInfo{{Bname: "b"}}})), ErrSnapshotRecord},
		{"duplicate mapping", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}),
			rec(recMapping, &mappingRecord{Topic: "t", Infos: []TopicQueueMappingInfo{{Bname: "a"}, {Bname: "a", Epoch: 2}}})), ErrSnapshotRecord},
		{"key without namespace", buildSnapshot(t, rec(recMeta, &metaRecord{Schema: 1}),
			rec(recKV, &kvRecord{Namespace: "n", Key: "k"})), ErrSnapshotRecord},
		{"undecodable record", buildSnapshotRaw(t, recMeta, []byte{0xC1}), ErrSnapshotRecord},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := fixtureFSM(t)
			before, gen, applied := reads(f), f.Generation(), f.AppliedIndex()
			err := restoreBytes(f, tc.data)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("Restore err = %v, want %v", err, tc.want)
			}
			if !reflect.DeepEqual(reads(f), before) || f.Generation() != gen || f.AppliedIndex() != applied {
				t.Fatal("a rejected snapshot changed the state")
			}
			if n, _ := f.Restores(); n != 0 {
				t.Fatalf("a rejected snapshot counts as restored (%d)", n)
			}
		})
	}
}

type record struct {
	typ uint8
	v   any
}

func rec(typ uint8, v any) record { return record{typ, v} }

func buildSnapshot(t *testing.T, recs ...record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := snapshots.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		payload, err := encodeMsgpack(r.v)
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
