package fsm

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

// TestRegistry_EveryCommandRoundTripsThroughRaft walks the command table:
// each command is encoded, wrapped in a Raft entry and applied on two FSMs
// that start from the same state. Both must answer the same, end in the same
// state, and the answer must survive the leader-to-follower trip. A command
// in the table without a sample here fails, so a new one is tested too.
func TestRegistry_EveryCommandRoundTripsThroughRaft(t *testing.T) {
	samples := sampleCommands()
	for _, typ := range CommandTypes() {
		t.Run(typ.String(), func(t *testing.T) {
			cmd, ok := samples[typ]
			if !ok {
				t.Fatalf("%s is registered but has no sample in sampleCommands", typ)
			}
			a, b := seededFSM(t), seededFSM(t)
			entry := makeLog(t, 10, typ, cmd)
			resA, resB := a.Apply(entry), b.Apply(entry)
			if !reflect.DeepEqual(resA, resB) {
				t.Fatalf("answers differ: %#v vs %#v", resA, resB)
			}
			if a.Digest() != b.Digest() || a.AppliedIndex() != 10 {
				t.Fatalf("replicas diverged or did not advance (applied %d)", a.AppliedIndex())
			}
			wire, err := EncodeResult(typ, resA)
			if err != nil {
				t.Fatalf("EncodeResult: %v", err)
			}
			back, err := DecodeResult(typ, wire)
			if err != nil || !reflect.DeepEqual(back, resA) {
				t.Fatalf("result round trip = %#v, %v; want %#v", back, err, resA)
			}
		})
	}
}

// seededFSM holds one registered broker, so that commands about it change
// something.
func seededFSM(t *testing.T) *FSM {
	f := New(testLogger(t))
	f.Apply(makeLog(t, 1, RegisterBrokerType, reg(brokerA, 0, masterAddr, 1, "T1")))
	return f
}

func TestRegistry_AnswersOfResultCommands(t *testing.T) {
	f := seededFSM(t)
	if _, ok := f.Apply(makeLog(t, 2, RegisterBrokerType, reg(brokerA, 1, slaveAddr, 1, "T1"))).(state.RegisterResult); !ok {
		t.Fatal("RegisterBroker must answer a RegisterResult")
	}
	res := f.Apply(makeLog(t, 3, WipeWritePermType, &state.WipeWritePerm{BrokerName: brokerA}))
	if r, ok := res.(state.WritePermResult); !ok || r.TopicCount != 1 {
		t.Fatalf("WipeWritePerm answered %#v, want a count of 1", res)
	}
}

func TestRegistry_RefusesIncompleteDescriptions(t *testing.T) {
	apply := func(*FSM, *state.State, *state.PutKV, uint64) bool { return false }
	cases := map[string][]commandSpec{
		"no apply":        {command[state.PutKV](PutKVType, "PutKV", Forwardable, nil)},
		"no name":         {command(PutKVType, "", Forwardable, apply)},
		"reserved type":   {command(compressedType, "Packed", Forwardable, apply)},
		"flagged type":    {command(PutKVType|IgnoreUnknownTypeFlag, "PutKV", Forwardable, apply)},
		"type taken":      {command(PutKVType, "PutKV", Forwardable, apply), command(PutKVType, "Other", Forwardable, apply)},
		"name taken":      {command(PutKVType, "PutKV", Forwardable, apply), command(DeleteKVType, "PutKV", Forwardable, apply)},
		"result no apply": {commandWithResult[state.WipeWritePerm, state.WritePermResult](WipeWritePermType, "WipeWritePerm", Forwardable, nil)},
	}
	for name, specs := range cases {
		t.Run(name, func(t *testing.T) {
			if err := validate(specs); !errors.Is(err, errIncompleteCommand) {
				t.Fatalf("validate = %v, want errIncompleteCommand", err)
			}
		})
	}
	if err := validate([]commandSpec{command(PutKVType, "PutKV", Forwardable, apply)}); err != nil {
		t.Fatalf("a complete description was refused: %v", err)
	}
}

func TestRegistry_ForwardingRules(t *testing.T) {
	leaderOnly := map[CommandType]bool{ExpireBrokersType: true, SetMemberType: true, RemoveMemberType: true,
		AckMinBrokerIDNoticeType: true, SetClusterVersionType: true, SetMemberDrainingType: true, DropUnlistedTopicsType: true, SetMemberStandingType: true,
		ApplyBrokerIDType: true, UpdateBrokerAddressType: true, ElectMasterType: true, AlterSyncStateSetType: true, CleanBrokerDataType: true}
	for _, typ := range CommandTypes() {
		if got := IsForwardable(typ); got == leaderOnly[typ] {
			t.Errorf("IsForwardable(%s) = %v", typ, got)
		}
	}
	if IsForwardable(99) || !IsForwardable(PutKVType|IgnoreUnknownTypeFlag) {
		t.Error("unknown types must not be forwardable; the flag must not matter")
	}
}

func TestEntryType_ReadsPlainAndCompressedEntriesWithoutDecoding(t *testing.T) {
	big := reg(brokerA, 0, masterAddr, 1)
	for i := 0; i < 2000; i++ {
		big.TopicConfigs = append(big.TopicConfigs, topicConfig("topic-with-a-long-name-"+strconv.Itoa(i), 6))
	}
	for _, tc := range []struct {
		typ CommandType
		cmd any
	}{{PutKVType, &state.PutKV{Namespace: "n", Key: "k"}}, {RegisterBrokerType, big}} {
		buf := makeLog(t, 1, tc.typ, tc.cmd).Data
		if got, err := EntryType(buf); err != nil || got != tc.typ {
			t.Fatalf("EntryType = %v, %v; want %v", got, err, tc.typ)
		}
	}
	if buf := makeLog(t, 1, RegisterBrokerType, big).Data; CommandType(buf[0]) != compressedType {
		t.Fatal("the large sample must be compressed for this test to mean anything")
	}
	for _, bad := range [][]byte{nil, {byte(compressedType)}, {99}, {byte(compressedType), 99}} {
		if _, err := EntryType(bad); err == nil {
			t.Errorf("EntryType(%v) accepted a bad entry", bad)
		}
	}
}
