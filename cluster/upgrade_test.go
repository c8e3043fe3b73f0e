package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"

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
