package fsm

import (
	"errors"
	"github.com/raftns/raftns/fsm/state"
	"reflect"
	"testing"
)

func sampleCommands() map[CommandType]any {
	rb := reg(brokerA, 1, slaveAddr, 3, "T1", "T2")
	rb.ZoneName, rb.FilterServerList = "z", []string{"f:1"}
	rb.MappingInfos = []state.TopicQueueMappingInfo{{Topic: "T1", Bname: brokerA, CurrIDMap: map[int32]int32{0: 3}}}
	return map[CommandType]any{
		RegisterBrokerType:       rb,
		UnregisterBrokerType:     &state.UnregisterBroker{ClusterName: cluster, BrokerAddr: masterAddr, BrokerName: brokerA, BrokerID: 0},
		ExpireBrokersType:        &state.ExpireBrokers{Reason: "timeout", Brokers: []state.ExpiredBroker{{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: 7}}},
		WipeWritePermType:        &state.WipeWritePerm{BrokerName: brokerA},
		AddWritePermType:         &state.AddWritePerm{BrokerName: brokerA},
		DeleteTopicType:          &state.DeleteTopic{Topic: "T", ClusterName: cluster},
		RegisterTopicType:        &state.RegisterTopic{Topic: "T", QueueDatas: []state.QueueData{{BrokerName: brokerA, Perm: 6}}},
		PutKVType:                &state.PutKV{Namespace: "NS", Key: "k", Value: "v", HasValue: true},
		DeleteKVType:             &state.DeleteKV{Namespace: "NS", Key: "k"},
		SetMemberType:            &state.SetMember{Member: state.Member{ID: "n1", ClientAddr: "a:1", ClusterAddr: "a:2"}},
		RemoveMemberType:         &state.RemoveMember{ID: "n1"},
		SetMemberDrainingType:    &state.SetMemberDraining{Member: state.DrainingMember{ID: "n1", DrainMillis: 30000, SinceMillis: 5, Force: true}, Draining: true},
		AckMinBrokerIDNoticeType: &state.AckMinBrokerIDNotice{BrokerName: brokerA, Index: 9},
		SetClusterVersionType:    &state.SetClusterVersion{Version: "0.2.0"},
		ApplyBrokerIDType:        &state.ApplyBrokerID{ClusterName: cluster, BrokerName: brokerA, BrokerID: 1, Addr: masterAddr, CheckCode: masterAddr + ";1"},
		UpdateBrokerAddressType:  &state.UpdateBrokerAddress{BrokerName: brokerA, BrokerID: 1, Addr: slaveAddr},
		ElectMasterType:          &state.ElectMaster{BrokerName: brokerA, ExpectMasterEpoch: 2, HasNewMaster: true, NewMasterID: 3},
		AlterSyncStateSetType:    &state.AlterSyncStateSet{BrokerName: brokerA, MasterID: 1, MasterEpoch: 2, SyncStateSetEpoch: 3, NewSyncStateSet: []int64{1, 2}},
		CleanBrokerDataType:      &state.CleanBrokerData{BrokerName: brokerA, BrokerIDs: []int64{2}},
		SetMemberStandingType:    &state.SetMemberStanding{Standing: state.MemberStanding{ID: "n1", StorageID: "5f0c", NonVoter: true}},
		RecordAuditType:          &state.RecordAudit{Record: state.AuditRecord{Kind: state.AuditLeaderTransfer, Detail: "to=n2", Outcome: state.OutcomeApplied}},
		DropUnlistedTopicsType: &state.DropUnlistedTopics{ClusterName: cluster, BrokerAddr: masterAddr, BrokerName: brokerA,
			DataVersion: state.DataVersion{Counter: 3, Timestamp: 4}, Topics: []string{"T1", "T2"}},
		SetSettingsType: &state.SetSettings{Scope: state.SettingsNamesrv, Values: map[string]string{"orderMessageEnable": "true"}, Seed: true, From: "n1"},
	}
}

func TestEncode_RoundTripsEveryCommand(t *testing.T) {
	for typ, cmd := range sampleCommands() {
		t.Run(typ.String(), func(t *testing.T) {
			for _, flagged := range []CommandType{typ, typ | IgnoreUnknownTypeFlag} {
				buf, err := Encode(flagged, cmd)
				if err != nil {
					t.Fatalf("Encode: %v", err)
				}
				// A command that needs a feature travels in the versioned
				// envelope of the feature's release.
				want := ""
				if f := NeededFeature(typ); !f.IsZero() {
					want = f.Since.String()
				}
				release, inner, err := splitVersioned(buf)
				if err != nil || release != want {
					t.Fatalf("envelope of %x: release %q, %v; want %q", buf, release, err, want)
				}
				if inner[0] != byte(flagged) {
					t.Fatalf("type byte = %d, want %d", inner[0], flagged)
				}
				gotType, got, err := Decode(buf)
				if err != nil || gotType != flagged || !reflect.DeepEqual(got, cmd) {
					t.Fatalf("Decode = %v, %+v, %v; want %v, %+v", gotType, got, err, flagged, cmd)
				}
			}
			byValue := reflect.ValueOf(cmd).Elem().Interface()
			if _, err := Encode(typ, byValue); err != nil {
				t.Fatalf("Encode by value: %v", err)
			}
		})
	}
}

func TestEncode_Errors(t *testing.T) {
	cases := []struct {
		name string
		typ  CommandType
		cmd  any
		want error
	}{
		{"wrong struct", PutKVType, &state.DeleteKV{}, ErrCommandMismatch},
		{"nil", PutKVType, nil, ErrCommandMismatch},
		{"nil pointer", PutKVType, (*state.PutKV)(nil), ErrCommandMismatch},
		{"unknown type", 99, &state.PutKV{}, ErrUnknownCommandType},
		{"zero type", 0, &state.PutKV{}, ErrUnknownCommandType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Encode(tc.typ, tc.cmd); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestDecode_Errors(t *testing.T) {
	good, _ := Encode(PutKVType, &state.PutKV{Namespace: "n", Key: "k"})
	cases := []struct {
		name string
		buf  []byte
		want error
	}{
		{"empty", nil, ErrEmptyCommand},
		{"unknown type", []byte{99}, ErrUnknownCommandType},
		{"unknown flagged type", []byte{99 | 0x80}, ErrUnknownCommandType},
		{"garbage payload", []byte{byte(PutKVType), 0xC1}, ErrDecodeCommand},
		{"truncated payload", good[:len(good)-2], ErrDecodeCommand},
		{"trailing bytes", append(append([]byte{}, good...), 0x01), ErrDecodeCommand},
		{"wrong shape", []byte{byte(PutKVType), 0x93, 1, 2, 3}, ErrDecodeCommand},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := Decode(tc.buf); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestCommandType_String(t *testing.T) {
	cases := map[CommandType]string{
		RegisterBrokerType:                       "RegisterBroker",
		RemoveMemberType | IgnoreUnknownTypeFlag: "RemoveMember",
		CommandType(77):                          "Unknown",
	}
	for typ, want := range cases {
		if got := typ.String(); got != want {
			t.Fatalf("%d.String() = %q, want %q", uint8(typ), got, want)
		}
	}
}

// FuzzDecode feeds arbitrary entries to Decode and EntryType: neither may
// panic, EntryType accepts what Decode accepts with the same type, and
// what Decode accepts must re-encode and decode to the same command.
func FuzzDecode(f *testing.F) {
	for typ, cmd := range sampleCommands() {
		buf, err := Encode(typ, cmd)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(buf)
		if IsAudited(typ) {
			f.Add(audited(f, testStamp(1, 10), typ, cmd))
		}
	}
	f.Fuzz(func(t *testing.T, buf []byte) {
		peeked, peekErr := EntryType(buf)
		typ, cmd, err := Decode(buf)
		if err != nil {
			return
		}
		if peekErr != nil || peeked != typ {
			t.Fatalf("EntryType = %v, %v; Decode said %v", peeked, peekErr, typ)
		}
		again, err := Encode(typ, cmd)
		if err != nil {
			t.Fatalf("re-encode %s: %v", typ, err)
		}
		_, cmd2, err := Decode(again)
		if err != nil || !reflect.DeepEqual(cmd, cmd2) {
			t.Fatalf("re-decoded %+v, %v; want %+v", cmd2, err, cmd)
		}
	})
}
