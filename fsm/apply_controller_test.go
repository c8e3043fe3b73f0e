package fsm

import (
	"bytes"
	"errors"
	"github.com/raftns/raftns/fsm/state"
	"reflect"
	"testing"
)

// ctrlFSM applies commands in order and returns the FSM and each answer.
func ctrlFSM(t *testing.T, cmds ...any) (*FSM, []state.ControllerResult) {
	t.Helper()
	f := New(testLogger(t))
	var out []state.ControllerResult
	for i, c := range cmds {
		typ := map[reflect.Type]CommandType{
			reflect.TypeOf(&state.ApplyBrokerID{}): ApplyBrokerIDType, reflect.TypeOf(&state.UpdateBrokerAddress{}): UpdateBrokerAddressType,
			reflect.TypeOf(&state.ElectMaster{}): ElectMasterType, reflect.TypeOf(&state.AlterSyncStateSet{}): AlterSyncStateSetType,
			reflect.TypeOf(&state.CleanBrokerData{}): CleanBrokerDataType,
		}[reflect.TypeOf(c)]
		res := f.Apply(makeLog(t, uint64(i+1), typ, c))
		r, ok := res.(state.ControllerResult)
		if !ok {
			t.Fatalf("command %d answered %T (%v)", i, res, res)
		}
		out = append(out, r)
	}
	return f, out
}

func applyID(id int64, addr string) *state.ApplyBrokerID {
	return &state.ApplyBrokerID{ClusterName: cluster, BrokerName: brokerA, BrokerID: id, Addr: addr, CheckCode: addr + ";1"}
}

func TestController_ApplyBrokerID(t *testing.T) {
	other := applyID(2, "10.0.0.3:10911")
	other.CheckCode = "someone-else"
	_, res := ctrlFSM(t,
		applyID(2, masterAddr), // a new group must start at 1
		applyID(1, masterAddr),
		applyID(1, masterAddr), // the same broker again: granted
		other,                  // id 2 is free: granted
		&state.ApplyBrokerID{ClusterName: cluster, BrokerName: brokerA, BrokerID: 2, Addr: slaveAddr, CheckCode: "x"}, // taken
	)
	want := []state.ControllerRefusal{state.RefusalBrokerIDInvalid, state.RefusalNone, state.RefusalNone, state.RefusalNone, state.RefusalBrokerIDInvalid}
	for i, r := range res {
		if r.Refusal != want[i] {
			t.Errorf("apply %d: refusal %d (%s), want %d", i, r.Refusal, r.Remark, want[i])
		}
	}
	if g := res[3].Group; g.NextID != 3 || !reflect.DeepEqual(g.IDs(), []int64{1, 2}) || g.HasMaster {
		t.Errorf("group = %+v", g)
	}
}

func TestController_ElectAndAlter(t *testing.T) {
	f, res := ctrlFSM(t,
		applyID(1, masterAddr), applyID(2, slaveAddr),
		&state.ElectMaster{BrokerName: brokerA, ExpectMasterEpoch: 0, HasNewMaster: true, NewMasterID: 1},
		&state.ElectMaster{BrokerName: brokerA, ExpectMasterEpoch: 0, HasNewMaster: true, NewMasterID: 2}, // stale
		&state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 1, NewSyncStateSet: []int64{2, 1}},
		&state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 1, NewSyncStateSet: []int64{1}}, // fenced
		&state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 2, MasterEpoch: 1, SyncStateSetEpoch: 2, NewSyncStateSet: []int64{2}}, // not master
		&state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 0, SyncStateSetEpoch: 2, NewSyncStateSet: []int64{1}}, // old master epoch
		&state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 2, NewSyncStateSet: []int64{1, 9}},
		&state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 2, NewSyncStateSet: []int64{2}}, // drops the master
		&state.ElectMaster{BrokerName: brokerA, ExpectMasterEpoch: 1, HasNewMaster: true, NewMasterID: 2},
		&state.ElectMaster{BrokerName: brokerA, ExpectMasterEpoch: 2},
	)
	want := []state.ControllerRefusal{state.RefusalNone, state.RefusalNone, state.RefusalNone, state.RefusalStaleElection, state.RefusalNone,
		state.RefusalFencedSyncStateSetEpoch, state.RefusalInvalidMaster, state.RefusalFencedMasterEpoch, state.RefusalInvalidReplicas,
		state.RefusalAlterFailed, state.RefusalNone, state.RefusalNone}
	for i, r := range res {
		if r.Refusal != want[i] {
			t.Errorf("command %d: refusal %d (%s), want %d", i, r.Refusal, r.Remark, want[i])
		}
	}
	if g := res[4].Group; !reflect.DeepEqual(g.SyncStateSet, []int64{1, 2}) || g.SyncStateSetEpoch != 2 {
		t.Errorf("after alter: %+v", g)
	}
	if g := res[10].Group; g.MasterID != 2 || g.MasterEpoch != 2 || !reflect.DeepEqual(g.SyncStateSet, []int64{2}) || g.SyncStateSetEpoch != 3 {
		t.Errorf("after failover: %+v", g)
	}
	g, _ := f.ReplicaGroup(brokerA)
	if g.HasMaster || g.MasterEpoch != 3 || !reflect.DeepEqual(g.SyncStateSet, []int64{2}) {
		t.Errorf("after an election without candidate: %+v (master cleared, set kept)", g)
	}
}

func TestController_UpdateAddressAndClean(t *testing.T) {
	f, res := ctrlFSM(t,
		applyID(1, masterAddr), applyID(2, slaveAddr),
		&state.UpdateBrokerAddress{BrokerName: brokerA, BrokerID: 2, Addr: "10.0.0.7:10911"},
		&state.UpdateBrokerAddress{BrokerName: brokerA, BrokerID: 5, Addr: "x"},
		&state.ElectMaster{BrokerName: brokerA, HasNewMaster: true, NewMasterID: 1},
		&state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 1, NewSyncStateSet: []int64{1, 2}},
		&state.CleanBrokerData{BrokerName: brokerA, BrokerIDs: []int64{2}},
		&state.CleanBrokerData{BrokerName: brokerB},
	)
	if res[2].Group.Addr(2) != "10.0.0.7:10911" || res[3].Refusal != state.RefusalNotRegistered || res[7].Refusal != state.RefusalNotRegistered {
		t.Errorf("results = %+v", res)
	}
	g, _ := f.ReplicaGroup(brokerA)
	if !reflect.DeepEqual(g.IDs(), []int64{1}) || !reflect.DeepEqual(g.SyncStateSet, []int64{1}) {
		t.Errorf("after cleaning 2: %+v", g)
	}
	before := f.Digest()
	f.Apply(makeLog(t, 20, CleanBrokerDataType, &state.CleanBrokerData{BrokerName: brokerA}))
	if _, ok := f.ReplicaGroup(brokerA); ok || f.Digest() == before {
		t.Error("cleaning the whole group left it")
	}
}

// fixtureLogV2 is the history behind testdata/snapshots/fsm-v2.snap: the v1
// history plus a controller group with a master, a SyncStateSet of two and
// a third broker outside it.
func fixtureLogV2(t testing.TB) []Entry {
	logs := fixtureLog(t)
	next := uint64(len(logs))
	cmds := []struct {
		typ CommandType
		cmd any
	}{
		{ApplyBrokerIDType, applyID(1, masterAddr)},
		{ApplyBrokerIDType, applyID(2, slaveAddr)},
		{ApplyBrokerIDType, applyID(3, "10.0.0.3:10911")},
		{ElectMasterType, &state.ElectMaster{BrokerName: brokerA, HasNewMaster: true, NewMasterID: 1}},
		{AlterSyncStateSetType, &state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 1, NewSyncStateSet: []int64{1, 2}}},
	}
	for i, c := range cmds {
		logs = append(logs, makeLog(t, next+uint64(i)+1, c.typ, c.cmd))
	}
	return logs
}

const fixtureV2 = "fsm-v2.snap"

// TestFSM_Restore_FixtureV2 restores the schema-2 snapshot kept in
// testdata. Rewrite it with -update only while schema 2 is unreleased.
func TestFSM_Restore_FixtureV2(t *testing.T) {
	want := New(testLogger(t))
	want.ApplyBatch(fixtureLogV2(t))
	f, data := restoreFixture(t, fixtureV2, want)
	g, ok := f.ReplicaGroup(brokerA)
	if !ok || g.MasterID != 1 || g.MasterEpoch != 1 || g.SyncStateSetEpoch != 2 || g.NextID != 4 ||
		!reflect.DeepEqual(g.SyncStateSet, []int64{1, 2}) || g.Addr(3) != "10.0.0.3:10911" || g.ClusterName != cluster {
		t.Errorf("restored group = %+v, %v", g, ok)
	}
	if !reflect.DeepEqual(reads(f), reads(want)) || !reflect.DeepEqual(f.ReplicaGroups(), want.ReplicaGroups()) {
		t.Error("restored fixture reads differ from the scripted history")
	}
	// Schema 2 is what this build writes: re-persisting is byte-identical.
	if again := snapshotBytes(t, f); !bytes.Equal(again, data) {
		t.Error("re-persisting the restored fixture gives different bytes")
	}
}

// A snapshot freezes the state and the next write continues from a thawed
// copy; the controller's broker groups must survive that like every other
// table, and a snapshot taken before a controller write must not see it.
func TestController_GroupsSurviveASnapshot(t *testing.T) {
	f, _ := ctrlFSM(t, applyID(1, "10.0.0.1:10911"))
	before := snapshotBytes(t, f)
	f.Apply(makeLog(t, 2, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "v", HasValue: true}))
	g, ok := f.ReplicaGroup(brokerA)
	if !ok || len(g.Brokers) != 1 {
		t.Fatalf("after a snapshot and a KV write the group is %+v (found %v), want its one broker", g, ok)
	}
	f.Apply(makeLog(t, 3, ApplyBrokerIDType, applyID(2, "10.0.0.2:10911")))
	if g, _ := f.ReplicaGroup(brokerA); len(g.Brokers) != 2 {
		t.Fatalf("after a second broker applied its id the group has %d brokers, want 2", len(g.Brokers))
	}
	restored := New(testLogger(t))
	if err := restoreBytes(restored, before); err != nil {
		t.Fatal(err)
	}
	if g, _ := restored.ReplicaGroup(brokerA); len(g.Brokers) != 1 {
		t.Fatalf("the snapshot taken before the second broker holds %d brokers, want 1", len(g.Brokers))
	}
}

// A refused command's result is the *Refused the leader would give for the
// same request, with the same remark; a granted one has no error.
func TestController_RefusalsAreErrors(t *testing.T) {
	_, res := ctrlFSM(t,
		applyID(1, masterAddr),
		&state.UpdateBrokerAddress{BrokerName: brokerA, BrokerID: 5, Addr: "x"},
		&state.UpdateBrokerAddress{BrokerName: brokerB, BrokerID: 1, Addr: "x"},
		&state.ElectMaster{BrokerName: brokerB},
	)
	if err := res[0].Err(); err != nil {
		t.Fatalf("granted command: %v", err)
	}
	for i, want := range []*state.Refused{state.RefuseUnknownBroker(brokerA, 5), state.RefuseUnknownGroup(brokerB), state.RefuseElectUnknownGroup()} {
		var got *state.Refused
		if !errors.As(res[i+1].Err(), &got) || *got != *want {
			t.Errorf("command %d: %#v, want %#v", i+1, res[i+1].Err(), want)
		}
	}
}
