package state

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
)

// Read refuses a snapshot whose records are missing, unknown, duplicated
// or do not decode, and one of a schema this build does not know.
func TestRead_RejectsBadRecords(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"no meta record", buildSnapshot(t, rec(recMember, &Member{ID: "x"})), ErrSnapshotRecord},
		{"unknown schema", buildSnapshot(t, rec(recMeta, &Meta{Schema: stateSchema + 1})), ErrSnapshotSchema},
		{"replica group in schema 1", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}),
			rec(recReplicaGroup, &ReplicaGroup{BrokerName: brokerA})), ErrSnapshotRecord},
		{"unknown record type", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}), rec(200, &Member{})), ErrSnapshotRecord},
		{"duplicate member", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}),
			rec(recMember, &Member{ID: "x"}), rec(recMember, &Member{ID: "x"})), ErrSnapshotRecord},
		{"duplicate topic", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}),
			rec(recTopic, &topicRecord{Topic: "t", Queues: []QueueData{{BrokerName: "a"}}}),
			rec(recTopic, &topicRecord{Topic: "t", Queues: []QueueData{{BrokerName: "b"}}})), ErrSnapshotRecord},
		{"empty topic", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}), rec(recTopic, &topicRecord{Topic: "t"})), ErrSnapshotRecord},
		{"duplicate queue data", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}),
			rec(recTopic, &topicRecord{Topic: "t", Queues: []QueueData{{BrokerName: "a"}, {BrokerName: "a", Perm: 4}}})), ErrSnapshotRecord},
		{"duplicate mapping topic", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}),
			rec(recMapping, &mappingRecord{Topic: "t", Infos: []TopicQueueMappingInfo{{Bname: "a"}}}),
			rec(recMapping, &mappingRecord{Topic: "t", Infos: []TopicQueueMappingInfo{{Bname: "b"}}})), ErrSnapshotRecord},
		{"duplicate mapping", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}),
			rec(recMapping, &mappingRecord{Topic: "t", Infos: []TopicQueueMappingInfo{{Bname: "a"}, {Bname: "a", Epoch: 2}}})), ErrSnapshotRecord},
		{"key without namespace", buildSnapshot(t, rec(recMeta, &Meta{Schema: 1}),
			rec(recKV, &kvRecord{Namespace: "n", Key: "k"})), ErrSnapshotRecord},
		{"undecodable record", buildSnapshotRaw(t, recMeta, []byte{0xC1}), ErrSnapshotRecord},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if s, _, err := Read(bytes.NewReader(tc.data)); err == nil || !errors.Is(err, tc.want) || s != nil {
				t.Fatalf("Read = %v, %v; want %v", s, err, tc.want)
			}
		})
	}
}

// A snapshot holding a record this release does not know is refused,
// naming this release and the one its writer said it needs.
func TestRead_UnknownRecordOfANewerReleaseIsRefusedNamingBoth(t *testing.T) {
	data := buildSnapshot(t, rec(recMeta, &Meta{Schema: stateSchema, AppliedIndex: 9, Writer: "9.2.0", Needs: "9.1.0"}),
		rec(200, map[string]string{})) // 0x80, an empty map
	_, _, err := Read(bytes.NewReader(data))
	if !errors.Is(err, feature.ErrTooNew) || !errors.Is(err, ErrSnapshotRecord) {
		t.Fatalf("Read = %v, want a refusal of the record as too new", err)
	}
	for _, s := range []string{"snapshot record type 200", "release " + buildinfo.Release, "release 9.1.0 or newer"} {
		if !strings.Contains(err.Error(), s) {
			t.Fatalf("%q lacks %q", err, s)
		}
	}
}
