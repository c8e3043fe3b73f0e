package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/internal/poll"
)

// formedAtBaseline forms a cluster as a release before the cluster
// version would: it stays at the baseline until finalized.
func formedAtBaseline(c *Config) { c.InitialClusterVersion = buildinfo.Baseline }

func TestCluster_FinalizeRaisesTheClusterVersionOnEveryMember(t *testing.T) {
	tc := newTestCluster(t, 3, formedAtBaseline)
	leader := tc.waitLeaderReady()
	ctx := context.Background()
	newer := feature.Feature{Name: "test-newer", Since: buildinfo.Current()}
	if err := leader.node.Gate().Check(newer); err == nil {
		t.Fatal("the gate allows a feature of this release before the upgrade was finalized")
	}
	if _, err := tc.followers()[0].node.FinalizeUpgrade(ctx); !errors.Is(err, ErrNotLeader) {
		t.Fatalf("finalize on a follower = %v, want ErrNotLeader", err)
	}
	res, err := leader.node.FinalizeUpgrade(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Previous != buildinfo.Baseline || res.Current != buildinfo.Release || len(res.Members) != 3 {
		t.Fatalf("finalize = %+v, want %s → %s with three members", res, buildinfo.Baseline, buildinfo.Release)
	}
	tc.waitSame()
	for _, m := range tc.running() {
		if !m.node.Gate().Allows(newer) || m.node.FSM().ClusterVersion().String() != buildinfo.Release {
			t.Fatalf("%s runs at %s after finalizing", m.id, m.node.FSM().ClusterVersion())
		}
	}
	// The gates the raise opened start the leader's own housekeeping (the
	// members' storage identities, the directory's zones), which may write
	// during a window: such a window is measured again. A finalize that
	// wrote would move the state in every window.
	poll.For(t, 10*time.Second, "a second finalize that writes no entry", func() bool {
		before := leader.node.FSM().LastChangeIndex()
		if res, err := leader.node.FinalizeUpgrade(ctx); err != nil || res.Previous != res.Current {
			t.Fatalf("a second finalize = %+v, %v; want nothing changed", res, err)
		}
		return leader.node.FSM().LastChangeIndex() == before
	})
}

func TestCluster_FinalizeRefusedWhileAMemberDoesNotAnswer(t *testing.T) {
	tc := newTestCluster(t, 3, formedAtBaseline)
	leader := tc.waitLeaderReady()
	down := tc.followers()[0]
	tc.stop(down)
	_, err := leader.node.FinalizeUpgrade(context.Background())
	if !errors.Is(err, ErrFinalizeRefused) || !strings.Contains(err.Error(), "member "+down.id) {
		t.Fatalf("finalize with %s down = %v, want a refusal naming it", down.id, err)
	}
	if leader.node.FSM().ClusterVersion().String() != buildinfo.Baseline {
		t.Fatal("a refused finalize raised the cluster version")
	}
}

// An RPC a newer release introduced is refused naming both releases; a
// known method called under its release-qualified name is served.
func TestCluster_RPCOfANewerReleaseIsRefusedNamingBothReleases(t *testing.T) {
	tc := newTestCluster(t, 2, nil)
	leader := tc.waitLeaderReady()
	other := tc.followers()[0]
	ctx := context.Background()
	newer := feature.Feature{Name: "test-rpc", Since: buildinfo.MustParse("9.1.0")}
	err := leader.node.pool.call(ctx, other.addr, feature.Method(newer, "Rebalance"), &StatusArgs{}, &adminapi.Status{}, true)
	if err == nil {
		t.Fatal("an unknown RPC was answered")
	}
	for _, want := range []string{"RPC Cluster.Rebalance is unknown to this member's release " + buildinfo.Release,
		"it needs release 9.1.0 or newer"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("%q lacks %q", err, want)
		}
	}
	var st adminapi.Status
	known := feature.Feature{Name: "test-known", Since: buildinfo.Current()}
	if err := leader.node.pool.call(ctx, other.addr, feature.Method(known, "Status"), &StatusArgs{}, &st, false); err != nil || st.ID != other.id {
		t.Fatalf("Status under its qualified name = %+v, %v", st, err)
	}
	if err := leader.node.pool.call(ctx, other.addr, "Rebalance", &StatusArgs{}, &adminapi.Status{}, false); err == nil ||
		!strings.Contains(err.Error(), "it needs a newer release") {
		t.Fatalf("an unknown plain method = %v, want a refusal saying a newer release is needed", err)
	}
}

// finalizedCluster starts two members of this release and finalizes: the
// cluster version is this release. It returns the leader and the follower.
func finalizedCluster(t *testing.T) (tc *testCluster, leader, follower *testMember) {
	tc = newTestCluster(t, 2, nil)
	leader = tc.waitLeaderReady()
	if _, err := leader.node.FinalizeUpgrade(context.Background()); err != nil {
		t.Fatal(err)
	}
	tc.waitSame()
	return tc, leader, tc.followers()[0]
}

// After finalizing, a starting member of an older release is refused when
// it asks to join, naming both releases; one of this release is not.
func TestCluster_AMemberOlderThanTheClusterVersionCannotJoin(t *testing.T) {
	_, leader, via := finalizedCluster(t)
	ctx := context.Background()
	for _, old := range []string{"", buildinfo.Baseline} {
		var reply LeaderReply
		args := &JoinArgs{ID: "n9", ClusterAddr: "127.0.0.1:1", Release: old}
		if err := leader.node.pool.call(ctx, via.addr, "Join", args, &reply, false); err != nil {
			t.Fatal(err)
		}
		err := replyErr(&reply)
		want := "member n9 runs release " + buildinfo.Baseline + ", older than the cluster version " + buildinfo.Release
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("join with release %q = %v, want a refusal saying %q", old, err, want)
		}
	}
	if err := via.node.admits(&JoinArgs{ID: "n9", Release: buildinfo.Release}); err != nil {
		t.Fatalf("a member of this release refused: %v", err)
	}
}

// After finalizing, "peers add" asks the member to add for its release:
// one older than the cluster version, or one that does not answer, is
// refused with a message naming both releases, and the configuration does
// not change; one of this release is added.
func TestCluster_PeersAddRefusesAMemberOlderThanTheClusterVersion(t *testing.T) {
	tc, leader, via := finalizedCluster(t)
	ctx := context.Background()
	old := tc.newMember("n3")
	tc.start(old, func(c *Config) { c.Bootstrap, c.release = false, buildinfo.Baseline })
	_, err := via.node.AddPeer(ctx, old.id, old.addr, AddOptions{})
	want := "member n3 runs release " + buildinfo.Baseline + ", older than the cluster version " + buildinfo.Release +
		"; start it with release " + buildinfo.Release + " or newer"
	if !errors.Is(err, ErrTooOldToJoin) || !strings.Contains(err.Error(), want) {
		t.Fatalf("peers add of a %s member = %v, want a refusal saying %q", buildinfo.Baseline, err, want)
	}
	_, err = via.node.AddPeer(ctx, "n9", "127.0.0.1:1", AddOptions{})
	if !errors.Is(err, ErrReleaseUnknown) || !strings.Contains(err.Error(), "start it with release "+buildinfo.Release+" or newer") {
		t.Fatalf("peers add of a member that does not answer = %v, want ErrReleaseUnknown naming %s", err, buildinfo.Release)
	}
	if ids := configurationIDs(leader.node.raft); len(ids) != 2 {
		t.Fatalf("configuration after refused additions: %v", ids)
	}
	tc.stop(old)
	current := tc.newMember("n4")
	tc.start(current, func(c *Config) { c.Bootstrap = false })
	if _, err := via.node.AddPeer(ctx, current.id, current.addr, AddOptions{}); err != nil {
		t.Fatalf("peers add of a member of this release: %v", err)
	}
}
