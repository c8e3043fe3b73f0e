package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"reflect"
	"testing"
)

func TestFSM_Members_SetAndRemove(t *testing.T) {
	h := newHarness(t)
	m1 := state.Member{ID: "n1", ClientAddr: "10.1.0.1:9876", ClusterAddr: "10.1.0.1:7000"}
	m2 := state.Member{ID: "n0", ClientAddr: "10.1.0.0:9876", ClusterAddr: "10.1.0.0:7000", HTTPAddr: "127.0.0.1:8080"}
	h.apply(SetMemberType, &state.SetMember{Member: m1})
	h.apply(SetMemberType, &state.SetMember{Member: m2})
	if got := h.f.Members(); !reflect.DeepEqual(got, []state.Member{m2, m1}) {
		t.Fatalf("Members = %+v, want sorted by id", got)
	}
	m1.ClientAddr = "10.1.0.9:9876"
	h.apply(SetMemberType, &state.SetMember{Member: m1})
	h.apply(RemoveMemberType, &state.RemoveMember{ID: "n0"})
	gen := h.f.Generation()
	h.apply(RemoveMemberType, &state.RemoveMember{ID: "unknown"})
	if h.f.Generation() != gen {
		t.Fatal("removing an unknown member changed the generation")
	}
	if got := h.f.Members(); !reflect.DeepEqual(got, []state.Member{m1}) {
		t.Fatalf("Members = %+v, want [%+v]", got, m1)
	}
}
