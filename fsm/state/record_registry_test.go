package state

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/raftns/raftns/snapshots"
)

// registeredKinds lists the record kinds of tableRegistry in its order.
func registeredKinds() []recordKind {
	var out []recordKind
	for _, spec := range tableRegistry {
		out = append(out, spec.records...)
	}
	return out
}

// TestSnapshotRecords_RegistryIsInStreamOrder: the registry lists each
// record type once, in ascending order after the meta record, each table
// at the slot its accessor reads.
func TestSnapshotRecords_RegistryIsInStreamOrder(t *testing.T) {
	last := recMeta
	for _, k := range registeredKinds() {
		if k.typ <= last {
			t.Fatalf("record type %d listed after %d: the registry must ascend from recMeta", k.typ, last)
		}
		last = k.typ
	}
	if len(snapshotRecordByType) != len(registeredKinds()) {
		t.Fatalf("%d types indexed, %d listed", len(snapshotRecordByType), len(registeredKinds()))
	}
	s := New()
	for slot, spec := range tableRegistry {
		if got, want := fmt.Sprintf("%T", s.tables[slot]), fmt.Sprintf("%T", spec.empty()); got != want {
			t.Fatalf("slot %d holds %s, want %s", slot, got, want)
		}
	}
}

// TestSnapshotRecords_EveryKindRoundTrips restores a snapshot holding one
// record of every registered kind and writes the state again: the stream
// must come back record for record, byte for byte. A kind added to the
// registry needs a sample here.
func TestSnapshotRecords_EveryKindRoundTrips(t *testing.T) {
	samples := map[uint8]any{
		recCluster:        &clusterRecord{Name: cluster, BrokerNames: []string{brokerA}},
		recBroker:         &BrokerData{Cluster: cluster, BrokerName: brokerA, BrokerAddrs: map[int64]string{0: masterAddr}},
		recTopic:          &topicRecord{Topic: "TopicA", Queues: []QueueData{{BrokerName: brokerA, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}}},
		recRegistration:   &BrokerRegistration{Key: BrokerKey{Cluster: cluster, Addr: masterAddr}, BrokerName: brokerA},
		recFilter:         &filterRecord{Key: BrokerKey{Cluster: cluster, Addr: masterAddr}, Addrs: []string{"10.0.0.1:8000"}},
		recMapping:        &mappingRecord{Topic: "TopicA", Infos: []TopicQueueMappingInfo{{Topic: "TopicA", Bname: brokerA, Epoch: 1}}},
		recKVNamespace:    &kvNamespaceRecord{Namespace: "ns"},
		recKV:             &kvRecord{Namespace: "ns", Key: "k", Value: "v"},
		recMember:         &Member{ID: "n1", ClientAddr: "127.0.0.1:9876", ClusterAddr: "127.0.0.1:9866"},
		recMinIDNotice:    &MinBrokerIDNotice{BrokerName: brokerA, MinBrokerID: 0, MinBrokerAddr: masterAddr},
		recReplicaGroup:   &ReplicaGroup{BrokerName: brokerA, Brokers: []ReplicaBroker{{ID: 1}}, SyncStateSet: []int64{1}},
		recSession:        &sessionRecord{Name: "n1", session: session{Floor: 1, LastIndex: 2, Done: map[uint64][]byte{2: []byte("ok")}}},
		recClusterVersion: &clusterVersionRecord{Version: "0.3.0"},
		recDrainingMember: &DrainingMember{ID: "n3", DrainMillis: 1000},
		recAudit:          &AuditRecord{Index: 7, Who: "n1", Kind: "PutKV"},
		recMemberStanding: &MemberStanding{ID: "n1", StorageID: "5f0c"},
		recSettings:       &settingsRecord{Scope: SettingsNamesrv, Values: map[string]string{"orderMessageEnable": "true"}, From: "n1"},
	}
	var in bytes.Buffer
	w, err := snapshots.NewWriter(&in)
	if err != nil {
		t.Fatal(err)
	}
	type written struct {
		typ     uint8
		payload []byte
	}
	var want []written
	write := func(typ uint8, v any) {
		payload, err := EncodeMsgpack(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRecord(typ, payload); err != nil {
			t.Fatal(err)
		}
		if typ != recMeta {
			want = append(want, written{typ, payload})
		}
	}
	write(recMeta, &Meta{Schema: stateSchema, AppliedIndex: 9, LastChangeIndex: 9})
	for _, k := range registeredKinds() {
		v, ok := samples[k.typ]
		if !ok {
			t.Fatalf("no sample of record type %d", k.typ)
		}
		write(k.typ, v)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st, _, err := Read(&in)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	var got []written
	if err := st.walk(func(typ uint8, v any) error {
		payload, err := EncodeMsgpack(v)
		got = append(got, written{typ, payload})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("wrote %d records back, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].typ != want[i].typ || !bytes.Equal(got[i].payload, want[i].payload) {
			t.Errorf("record %d: got type %d %x, want type %d %x", i, got[i].typ, got[i].payload, want[i].typ, want[i].payload)
		}
	}
}
