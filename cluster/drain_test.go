package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// allowDrains raises the cluster version so that the gate allows drains
// now: a new cluster reaches it only once its leader has heard from every
// member (formed_version.go); at the baseline removals take effect at
// once.
func allowDrains(t *testing.T, tc *testCluster) {
	t.Helper()
	if _, err := tc.waitLeaderReady().node.FinalizeUpgrade(context.Background()); err != nil {
		t.Fatalf("finalize: %v", err)
	}
	tc.waitSame()
}

// addressLists returns what every running member's address service
// answers ("!" and the error for a refusal).
func addressLists(tc *testCluster) map[string]string {
	out := map[string]string{}
	for _, m := range tc.running() {
		addrs, err := m.node.ClientAddresses()
		if err != nil {
			out[m.id] = "!" + err.Error()
			continue
		}
		out[m.id] = fmt.Sprint(addrs)
	}
	return out
}

// waitAddressLists waits until every running member but the ones in
// except answers want.
func waitAddressLists(t *testing.T, tc *testCluster, want []string, except ...string) {
	t.Helper()
	poll.For(t, 10*time.Second, fmt.Sprintf("every member to list %v", want), func() bool {
		for id, got := range addressLists(tc) {
			if !slices.Contains(except, id) && got != fmt.Sprint(want) {
				return false
			}
		}
		return true
	})
}

func TestCluster_AddressServiceListsTheReadyVotersInIDOrder(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	tc.waitLeaderReady()
	waitAddressLists(t, tc, []string{"client-n1", "client-n2", "client-n3"})
	down := tc.followers()[0]
	tc.stop(down)
	var rest []string
	for _, id := range []string{"n1", "n2", "n3"} {
		if id != down.id {
			rest = append(rest, "client-"+id)
		}
	}
	waitAddressLists(t, tc, rest)
	tc.start(down, nil)
	waitAddressLists(t, tc, []string{"client-n1", "client-n2", "client-n3"})
}

func TestCluster_RemovalDrainsThenRemovesAndTheMemberKnowsIt(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	allowDrains(t, tc)
	leader := tc.waitLeaderReady()
	n4 := tc.newMember("n4")
	tc.start(n4, func(c *Config) { c.Join = []string{leader.addr}; c.Bootstrap = false })
	poll.For(t, 10*time.Second, "n4 a voter", func() bool { return suffrageOf(t, tc.waitLeaderReady(), "n4") == raft.Voter })
	waitAddressLists(t, tc, []string{"client-n1", "client-n2", "client-n3", "client-n4"})

	via := tc.followers()[0]
	if via == n4 {
		via = tc.followers()[1]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := via.node.RemovePeer(ctx, "n4", RemoveOptions{Drain: 5 * time.Second})
	if err != nil || res.Result != adminapi.RemoveResultDraining || res.DrainMillis != 5000 {
		t.Fatalf("remove n4 = %+v, %v; want draining for 5000 ms", res, err)
	}
	// Every member stops listing n4 at once, while n4 still serves.
	waitAddressLists(t, tc, []string{"client-n1", "client-n2", "client-n3"})
	if ready, why := n4.node.Ready(); !ready || n4.node.Membership() != adminapi.MembershipDraining {
		t.Fatalf("draining n4: ready %v (%s), membership %q", ready, why, n4.node.Membership())
	}
	peers, err := via.node.Peers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range peers {
		if p.ID == "n4" && (p.Membership != adminapi.MembershipDraining || p.DrainMillis != 5000) {
			t.Fatalf("peers list shows n4 as %+v", p)
		}
	}
	// Asking again while it drains changes nothing.
	if again, err := via.node.RemovePeer(ctx, "n4", RemoveOptions{Drain: DefaultDrain}); err != nil || again.Result != adminapi.RemoveResultDraining {
		t.Fatalf("second removal = %+v, %v", again, err)
	}

	poll.For(t, 20*time.Second, "n4 out of the configuration", func() bool { return suffrageOf(t, tc.waitLeaderReady(), "n4") == -1 })
	poll.For(t, 15*time.Second, "n4 to find it was removed and say so", func() bool {
		ready, why := n4.node.Ready()
		return n4.node.Removed() && !ready && why == "removed from the cluster"
	})
	poll.For(t, 5*time.Second, "n4's Raft node to stop", func() bool { return n4.node.Status().State == raft.Shutdown.String() })
	if st := n4.node.Status(); st.Membership != adminapi.MembershipRemoved {
		t.Fatalf("removed n4 status: membership %q, state %q", st.Membership, st.State)
	}
	if _, err := n4.node.ClientAddresses(); !errors.Is(err, ErrNotReady) {
		t.Fatalf("removed n4 address service: %v", err)
	}
	if _, err := n4.node.Peers(ctx); !errors.Is(err, ErrRemoved) {
		t.Fatalf("removed n4 peers: %v", err)
	}
	for _, m := range tc.running() {
		if m != n4 && len(m.node.FSM().DrainingMembers()) != 0 {
			t.Fatalf("%s still has drains %+v", m.id, m.node.FSM().DrainingMembers())
		}
	}
	waitAddressLists(t, tc, []string{"client-n1", "client-n2", "client-n3"}, "n4")
}

func TestCluster_RemovingTheLeaderDrainsItFirst(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	allowDrains(t, tc)
	old := tc.waitLeaderReady()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if res, err := old.node.RemovePeer(ctx, old.id, RemoveOptions{Drain: time.Second}); err != nil || res.Result != adminapi.RemoveResultDraining {
		t.Fatalf("remove the leader = %+v, %v", res, err)
	}
	var rest []string
	for _, id := range []string{"n1", "n2", "n3"} {
		if id != old.id {
			rest = append(rest, "client-"+id)
		}
	}
	waitAddressLists(t, tc, rest)
	if !old.node.LeaderReady() {
		t.Fatal("the leader handed over before its drain was over")
	}
	poll.For(t, 15*time.Second, "the old leader out and told so", old.node.Removed)
	for _, m := range tc.running() {
		if m != old && suffrageOf(t, m, old.id) != -1 {
			t.Fatalf("%s still has %s in its configuration", m.id, old.id)
		}
	}
}

func TestCluster_WithoutTheGateARemovalTakesEffectAtOnceAndSaysWhy(t *testing.T) {
	tc := newTestCluster(t, 3, formedAtBaseline)
	leader := tc.waitLeaderReady()
	gone := tc.followers()[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := leader.node.RemovePeer(ctx, gone.id, RemoveOptions{Drain: DefaultDrain})
	if err != nil || res.Result != adminapi.RemoveResultRemoved || !strings.Contains(res.Note, "raftnsctl upgrade finalize") {
		t.Fatalf("remove %s before finalizing = %+v, %v; want removed at once with a note saying why", gone.id, res, err)
	}
	if suffrageOf(t, leader, gone.id) != -1 || len(leader.node.FSM().DrainingMembers()) != 0 {
		t.Fatalf("%s still in the configuration, or a drain was written", gone.id)
	}
}

func TestCluster_MemberRemovedWhileAwayFindsOutAndStopsCampaigning(t *testing.T) {
	tc := newTestCluster(t, 4, nil)
	leader := tc.waitLeaderReady()
	away := tc.followers()[0]
	tc.stop(away)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if res, err := leader.node.RemovePeer(ctx, away.id, RemoveOptions{}); err != nil || res.Result != adminapi.RemoveResultRemoved {
		t.Fatalf("remove %s = %+v, %v", away.id, res, err)
	}
	// Back with its old state, it still counts itself a voter.
	tc.start(away, nil)
	if suffrageOf(t, away, away.id) != raft.Voter {
		t.Fatal("the returning member does not count itself a voter; the test needs one that does")
	}
	poll.For(t, 20*time.Second, "the returning member to find it was removed", away.node.Removed)
	// A removed member no longer campaigns: its Raft node is stopped.
	poll.For(t, 5*time.Second, "the removed member's Raft node to stop", func() bool {
		return away.node.Status().State == raft.Shutdown.String()
	})
	if st := away.node.Status(); st.Membership != adminapi.MembershipRemoved {
		t.Fatalf("removed member: membership %q", st.Membership)
	}
	if ready, _ := away.node.Ready(); ready {
		t.Fatal("the removed member counts itself ready")
	}
}

func TestDrains_AnInheritedDrainEndsWhenItsStartSaysAtMostOneDrainLater(t *testing.T) {
	now := time.Unix(10_000, 0)
	for _, tc := range []struct {
		name    string
		since   time.Time
		dueAt   time.Duration // after now
		comment string
	}{
		{"begun 10 s ago", now.Add(-10 * time.Second), 20 * time.Second, "the rest of it"},
		{"begun long ago", now.Add(-time.Hour), 0, "over at once"},
		{"a start ahead of this clock", now.Add(time.Hour), 30 * time.Second, "never more than one drain"},
	} {
		d := newDrains()
		dm := state.DrainingMember{ID: "n3", DrainMillis: 30_000, SinceMillis: tc.since.UnixMilli()}
		if tc.dueAt > 0 && d.due(dm, now) {
			t.Fatalf("%s: due at once, want %s (%s)", tc.name, tc.dueAt, tc.comment)
		}
		if tc.dueAt > 0 && d.due(dm, now.Add(tc.dueAt-time.Millisecond)) {
			t.Fatalf("%s: due before %s (%s)", tc.name, tc.dueAt, tc.comment)
		}
		if !d.due(dm, now.Add(tc.dueAt)) {
			t.Fatalf("%s: not due at %s (%s)", tc.name, tc.dueAt, tc.comment)
		}
		if d.due(dm, now.Add(tc.dueAt+time.Second)) {
			t.Fatalf("%s: due again while its removal is under way", tc.name)
		}
	}
}
