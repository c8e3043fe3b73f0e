package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"reflect"
	"testing"
)

func TestFSM_MemberStanding_RecordReplaceAndRemoval(t *testing.T) {
	h := newHarness(t)
	s1 := state.MemberStanding{ID: "n1", StorageID: "a1"}
	h.apply(SetMemberStandingType, &state.SetMemberStanding{Standing: s1})
	if got, ok := h.f.MemberStanding("n1"); !ok || got != s1 {
		t.Fatalf("MemberStanding(n1) = %+v, %v", got, ok)
	}
	gen := h.f.Generation()
	h.apply(SetMemberStandingType, &state.SetMemberStanding{Standing: s1})
	h.apply(SetMemberStandingType, &state.SetMemberStanding{Standing: state.MemberStanding{StorageID: "x"}})
	if h.f.Generation() != gen {
		t.Fatal("a repeated standing or one without an id changed the state")
	}
	s2 := state.MemberStanding{ID: "n1", StorageID: "b2", NonVoter: true}
	h.apply(SetMemberStandingType, &state.SetMemberStanding{Standing: s2})
	if got, _ := h.f.MemberStanding("n1"); got != s2 {
		t.Fatalf("after the new storage: %+v", got)
	}
	h.apply(RemoveMemberType, &state.RemoveMember{ID: "n1"})
	if _, ok := h.f.MemberStanding("n1"); ok {
		t.Fatal("removing the member left its standing")
	}
}

func TestFSM_MemberStanding_SurvivesSnapshotAndIsAbsentOtherwise(t *testing.T) {
	src := fixtureFSM(t)
	if recordTypes(t, snapshotBytes(t, src))["member-standing"] {
		t.Fatal("a state without standings wrote a standing record")
	}
	s1, s2 := state.MemberStanding{ID: "n2", StorageID: "c3"}, state.MemberStanding{ID: "n1", StorageID: "d4", NonVoter: true}
	next := src.AppliedIndex() + 1
	src.Apply(makeLog(t, next, SetMemberStandingType, &state.SetMemberStanding{Standing: s1}))
	src.Apply(makeLog(t, next+1, SetMemberStandingType, &state.SetMemberStanding{Standing: s2}))
	dst := New(testLogger(t))
	if err := restoreBytes(dst, snapshotBytes(t, src)); err != nil {
		t.Fatal(err)
	}
	if got := dst.MemberStandings(); !reflect.DeepEqual(got, []state.MemberStanding{s2, s1}) {
		t.Fatalf("restored standings = %+v", got)
	}
	if dst.Digest() != src.Digest() {
		t.Fatal("restored state differs")
	}
}
