package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
)

func TestCluster_FinalizeRaisesTheClusterVersionOnEveryMember(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
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
	before := leader.node.FSM().LastChangeIndex()
	if res, err := leader.node.FinalizeUpgrade(ctx); err != nil || res.Previous != res.Current {
		t.Fatalf("a second finalize = %+v, %v; want nothing changed", res, err)
	}
	if leader.node.FSM().LastChangeIndex() != before {
		t.Fatal("a second finalize wrote an entry")
	}
}

func TestCluster_FinalizeRefusedWhileAMemberDoesNotAnswer(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
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

// After finalizing, a starting member of an older release is refused when
// it asks to join, naming both releases; one of this release is not.
func TestCluster_AMemberOlderThanTheClusterVersionCannotJoin(t *testing.T) {
	tc := newTestCluster(t, 2, nil)
	leader := tc.waitLeaderReady()
	ctx := context.Background()
	if _, err := leader.node.FinalizeUpgrade(ctx); err != nil {
		t.Fatal(err)
	}
	tc.waitSame()
	via := tc.followers()[0]
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
