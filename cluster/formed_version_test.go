package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/internal/poll"
)

// A cluster formed by members of this release runs at this release's
// cluster version without "upgrade finalize": drained removal works at
// once, on every member.
func TestCluster_ANewClusterStartsAtThisRelease(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	poll.For(t, 10*time.Second, "every member at cluster version "+buildinfo.Release, func() bool {
		for _, m := range tc.running() {
			if m.node.FSM().ClusterVersion().String() != buildinfo.Release || !m.node.Gate().Allows(feature.DrainedRemoval) {
				return false
			}
		}
		return true
	})
	if res, err := tc.waitLeaderReady().node.FinalizeUpgrade(context.Background()); err != nil || res.Previous != buildinfo.Release {
		t.Fatalf("finalize on a new cluster = %+v, %v; want nothing to raise", res, err)
	}
}

// A cluster formed with an initial cluster version of the baseline stays
// at it, as one formed by a release before versions does, and so does a
// new cluster one of whose initial members runs an older release.
func TestCluster_ANewClusterStaysAtTheVersionItsMembersAllow(t *testing.T) {
	for name, tune := range map[string]func(*Config){
		"formed at the baseline": formedAtBaseline,
		"an initial member of 0.1.0": func(c *Config) {
			if c.ID == "n3" {
				c.release = buildinfo.Baseline
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			tc := newTestCluster(t, 3, tune)
			leader := tc.waitLeaderReady()
			if name != "formed at the baseline" {
				poll.For(t, 10*time.Second, "two attempts to raise the version", func() bool {
					tries := int64(0)
					for _, m := range tc.running() {
						tries += m.node.formed.tries.Load()
					}
					return tries >= 2
				})
			}
			tc.waitSame()
			leader = tc.waitLeaderReady()
			if v := leader.node.FSM().ClusterVersion().String(); v != buildinfo.Baseline {
				t.Fatalf("cluster version %s, want %s", v, buildinfo.Baseline)
			}
			if err := leader.node.drainRefusal(); err == nil {
				t.Fatal("drained removal allowed at the baseline")
			}
		})
	}
}

func TestConfig_InitialClusterVersionNewerThanThisReleaseIsRefused(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ID, cfg.ClusterAddr = "n1", "127.0.0.1:1"
	for v, ok := range map[string]bool{"": true, buildinfo.Baseline: true, buildinfo.Release: true, "9.1.0": false, "soon": false} {
		cfg.InitialClusterVersion = v
		err := cfg.Validate()
		if (err == nil) != ok || !ok && (!errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "initial cluster version")) {
			t.Errorf("initial cluster version %q: Validate = %v", v, err)
		}
	}
}
