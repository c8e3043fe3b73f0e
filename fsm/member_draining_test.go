package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"reflect"
	"testing"
)

func TestFSM_Draining_StartEndAndRemoval(t *testing.T) {
	h := newHarness(t)
	h.apply(SetMemberType, &state.SetMember{Member: state.Member{ID: "n1", ClientAddr: "10.1.0.1:9876", ClusterAddr: "10.1.0.1:7000"}})
	d := state.DrainingMember{ID: "n1", DrainMillis: 30000, SinceMillis: 1000}
	h.apply(SetMemberDrainingType, &state.SetMemberDraining{Member: d, Draining: true})
	if got, ok := h.f.Draining("n1"); !ok || got != d {
		t.Fatalf("Draining(n1) = %+v, %v; want %+v", got, ok, d)
	}
	gen := h.f.Generation()
	h.apply(SetMemberDrainingType, &state.SetMemberDraining{Member: d, Draining: true})
	h.apply(SetMemberDrainingType, &state.SetMemberDraining{Member: state.DrainingMember{DrainMillis: 5}, Draining: true})
	h.apply(SetMemberDrainingType, &state.SetMemberDraining{Member: state.DrainingMember{ID: "other"}})
	if h.f.Generation() != gen {
		t.Fatal("a repeated drain, one without an id or ending one that does not drain changed the state")
	}
	h.apply(SetMemberDrainingType, &state.SetMemberDraining{Member: state.DrainingMember{ID: "n1"}})
	if got := h.f.DrainingMembers(); len(got) != 0 {
		t.Fatalf("after the drain ended: %+v", got)
	}
	h.apply(SetMemberDrainingType, &state.SetMemberDraining{Member: d, Draining: true})
	h.apply(RemoveMemberType, &state.RemoveMember{ID: "n1"})
	if _, ok := h.f.Draining("n1"); ok {
		t.Fatal("removing the member from the directory left its drain")
	}
	if len(h.f.Members()) != 0 {
		t.Fatalf("members = %+v", h.f.Members())
	}
	// A drain whose member has already left the directory is still ended
	// by its removal.
	h.apply(SetMemberDrainingType, &state.SetMemberDraining{Member: state.DrainingMember{ID: "gone"}, Draining: true})
	gen = h.f.Generation()
	h.apply(RemoveMemberType, &state.RemoveMember{ID: "gone"})
	if _, ok := h.f.Draining("gone"); ok || h.f.Generation() == gen {
		t.Fatal("RemoveMember of a draining member outside the directory changed nothing")
	}
}

func TestFSM_Draining_SurvivesSnapshotAndIsAbsentOtherwise(t *testing.T) {
	src := fixtureFSM(t)
	plain := snapshotBytes(t, src)
	d1 := state.DrainingMember{ID: "n2", DrainMillis: 30000, SinceMillis: 7, Force: true}
	d2 := state.DrainingMember{ID: "n1", DrainMillis: 1000}
	next := src.AppliedIndex() + 1
	src.Apply(makeLog(t, next, SetMemberDrainingType, &state.SetMemberDraining{Member: d1, Draining: true}))
	src.Apply(makeLog(t, next+1, SetMemberDrainingType, &state.SetMemberDraining{Member: d2, Draining: true}))
	dst := New(testLogger(t))
	if err := restoreBytes(dst, snapshotBytes(t, src)); err != nil {
		t.Fatal(err)
	}
	if got := dst.DrainingMembers(); !reflect.DeepEqual(got, []state.DrainingMember{d2, d1}) {
		t.Fatalf("restored drains = %+v", got)
	}
	if dst.Digest() != src.Digest() {
		t.Fatal("digest differs after the round trip")
	}
	// Without a drain the snapshot is what a release without drains
	// writes: ending both drains gives back the same bytes but for the
	// applied index.
	src.Apply(makeLog(t, next+2, SetMemberDrainingType, &state.SetMemberDraining{Member: d1}))
	src.Apply(makeLog(t, next+3, SetMemberDrainingType, &state.SetMemberDraining{Member: d2}))
	again := New(testLogger(t))
	if err := restoreBytes(again, snapshotBytes(t, src)); err != nil {
		t.Fatal(err)
	}
	old := New(testLogger(t))
	if err := restoreBytes(old, plain); err != nil {
		t.Fatal(err)
	}
	if again.Digest() != old.Digest() {
		t.Fatal("a state whose drains ended differs from one that never drained")
	}
}
