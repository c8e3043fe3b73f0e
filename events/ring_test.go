package events

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
)

func TestRingKeepsNewestFirstUpToCapacity(t *testing.T) {
	r := NewRing(3)
	for i := 1; i <= 5; i++ {
		r.Add(Event{Kind: "k", Text: fmt.Sprint(i)})
	}
	got := r.Recent(0)
	if len(got) != 3 {
		t.Fatalf("kept %d events, want 3", len(got))
	}
	for i, want := range []string{"5", "4", "3"} {
		if got[i].Text != want {
			t.Fatalf("event %d = %q, want %q (all: %+v)", i, got[i].Text, want, got)
		}
		if got[i].Time.IsZero() {
			t.Fatalf("event %d has no time", i)
		}
	}
	if two := r.Recent(2); len(two) != 2 || two[0].Text != "5" {
		t.Fatalf("Recent(2) = %+v", two)
	}
}

func TestRingBelowCapacity(t *testing.T) {
	r := NewRing(0)
	if r.Capacity() != 1 {
		t.Fatalf("capacity %d, want the minimum 1", r.Capacity())
	}
	if got := r.Recent(10); len(got) != 0 {
		t.Fatalf("empty ring returned %d events", len(got))
	}
}

func TestBrokerChangedDescribesEachKind(t *testing.T) {
	r := NewRing(10)
	r.BrokerChanged(fsm.BrokerChange{Kind: fsm.BrokerRegistered, Cluster: "c1", BrokerName: "b1", Addr: "h:1", Index: 7})
	r.BrokerChanged(fsm.BrokerChange{Kind: fsm.BrokerExpired, Cluster: "c1", BrokerName: "b1", Addr: "h:1", Reason: "timeout"})
	r.BrokerChanged(fsm.BrokerChange{Kind: fsm.BrokerUnregistered, Cluster: "c1", BrokerName: "b2", Addr: "h:2"})
	got := r.Recent(0)
	want := []struct{ kind, text string }{
		{KindBrokerUnregistered, "broker b2 (id 0, h:2) unregistered from cluster c1"},
		{KindBrokerExpired, "expired: timeout"},
		{KindBrokerRegistered, "broker b1 (id 0, h:1) registered in cluster c1"},
	}
	for i, w := range want {
		if got[i].Kind != w.kind || !strings.Contains(got[i].Text, w.text) {
			t.Fatalf("event %d = %+v, want kind %s with %q", i, got[i], w.kind, w.text)
		}
	}
	if got[2].Index != 7 || got[2].Broker != "b1" || got[2].Cluster != "c1" {
		t.Fatalf("registration fields lost: %+v", got[2])
	}
}

func TestMembershipEvents(t *testing.T) {
	before := map[raft.ServerID]raft.Server{
		"a": {ID: "a", Address: "h:1", Suffrage: raft.Voter},
		"b": {ID: "b", Address: "h:2", Suffrage: raft.Nonvoter},
		"c": {ID: "c", Address: "h:3", Suffrage: raft.Voter},
	}
	after := map[raft.ServerID]raft.Server{
		"a": {ID: "a", Address: "h:1", Suffrage: raft.Voter},
		"b": {ID: "b", Address: "h:2", Suffrage: raft.Voter},
		"d": {ID: "d", Address: "h:4", Suffrage: raft.Nonvoter},
	}
	got := membershipEvents(before, after, 3)
	if len(got) != 3 {
		t.Fatalf("got %d events, want 3: %+v", len(got), got)
	}
	kinds := []string{KindMemberChanged, KindMemberRemoved, KindMemberAdded}
	for i, k := range kinds {
		if got[i].Kind != k || got[i].Term != 3 {
			t.Fatalf("event %d = %+v, want kind %s term 3", i, got[i], k)
		}
	}
	if len(membershipEvents(after, after, 3)) != 0 {
		t.Fatal("an unchanged configuration produced events")
	}
}

func TestLeaderEvent(t *testing.T) {
	if e := leaderEvent("", "", 4); e.Text != "no leader (term 4)" || e.Kind != KindLeaderChanged {
		t.Fatalf("%+v", e)
	}
	if e := leaderEvent("n1", "h:1", 5); e.Member != "n1" || !strings.Contains(e.Text, "leader is n1") {
		t.Fatalf("%+v", e)
	}
}
