package chaos

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/launch"
)

// previousBuild is the commit the rolling-upgrade test starts from by
// default: release 0.3.0, the last before storage identities. The last
// commit before members reported their release, a3f08de, runs a cluster
// whose old members know nothing of versions (-upgrade.from=a3f08de).
const previousBuild = "e8ef2c5"

// Flags of the rolling-upgrade test; `make upgrade-test` sets -upgrade.run.
var (
	flagUpgradeRun    = flag.Bool("upgrade.run", false, "run the rolling-upgrade test (it builds a previous commit)")
	flagUpgradeFrom   = flag.String("upgrade.from", previousBuild, "commit of the build the cluster starts on")
	flagUpgradeSettle = flag.Duration("upgrade.settle", 8*time.Second, "load before the first step and after each one")
	flagUpgradeSeed   = flag.Uint64("upgrade.seed", 1, "seed of the clients' choices")
)

// TestUpgrade_RollingUpgradeAndDowngradeUnderLoad starts three members of
// the previous build under the chaos workload and live brokers, replaces
// them one at a time by this build, downgrades one back, and checks the
// history as the chaos test does: no acknowledged write lost, no live
// broker expired, some member answering routes throughout.
func TestUpgrade_RollingUpgradeAndDowngradeUnderLoad(t *testing.T) {
	if !*flagUpgradeRun {
		t.Skip("the rolling-upgrade test builds a previous commit; run it with make upgrade-test")
	}
	dir := t.TempDir()
	oldBin := buildCommit(t, *flagUpgradeFrom, dir)
	newBin, err := launch.Build(dir, "../../cmd/raftns")
	if err != nil {
		t.Fatal(err)
	}
	runDir, err := os.MkdirTemp("", "raftns-upgrade-run-")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(os.TempDir(), "raftns-upgrade")
	res, err := RunUpgrade(UpgradeConfig{Old: oldBin, New: newBin, NewRelease: buildinfo.Release, OldRelease: releaseOf(t, oldBin),
		Dir: runDir, OutDir: out,
		Seed: *flagUpgradeSeed, Members: 3, Clients: 4, LiveBrokers: 20, Settle: *flagUpgradeSettle})
	if err != nil {
		t.Fatalf("run: %v (member data and logs kept in %s)", err, runDir)
	}
	t.Logf("UPGRADE from %s: %s", *flagUpgradeFrom, res)
	if !res.OK() || res.Faults[StepUpgrade] != 4 || res.Faults[StepDowngrade] != 1 || res.Faults[StepFinalize] != 1 ||
		res.Faults[StepDiskLoss] != 1 {
		t.Fatalf("steps %v, check %s, %d acknowledged writes lost, %d live brokers expired, %d of %d route rounds unanswered, "+
			"%d failed steps; history and visualization: %v; member logs: %s", res.Faults, res.Check, res.LostAcked,
			res.LiveExpired, res.RouteMisses, res.RouteProbes, res.StepFailures, res.Artifacts, runDir)
	}
	os.RemoveAll(runDir)
}

// buildCommit builds raftns as it was at commit into dir and returns the
// binary's path. The source comes from this clone's history with git
// archive; a commit the clone lacks fails the test saying so.
func buildCommit(t *testing.T, commit, dir string) string {
	t.Helper()
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("the rolling-upgrade test builds commit %s from this repository's history, but this is not a git checkout: %v", commit, err)
	}
	root := strings.TrimSpace(string(top))
	if out, err := exec.Command("git", "-C", root, "cat-file", "-e", commit+"^{commit}").CombinedOutput(); err != nil {
		t.Fatalf("commit %s, the build the rolling-upgrade test starts from, is not in this clone's history (a shallow "+
			"clone? git fetch --unshallow): %v %s", commit, err, out)
	}
	src := filepath.Join(dir, "src-"+commit)
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := exec.Command("git", "-C", root, "archive", "--format=tar", commit)
	var tarball, stderr bytes.Buffer
	archive.Stdout, archive.Stderr = &tarball, &stderr
	if err := archive.Run(); err != nil {
		t.Fatalf("git archive %s: %v %s", commit, err, stderr.String())
	}
	untar := exec.Command("tar", "-x", "-C", src)
	untar.Stdin = &tarball
	if out, err := untar.CombinedOutput(); err != nil {
		t.Fatalf("unpack %s: %v %s", commit, err, out)
	}
	bin := filepath.Join(dir, "raftns-"+commit)
	build := exec.Command("go", "build", "-o", bin, "./cmd/raftns")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build raftns at %s: %v\n%s", commit, err, out)
	}
	return bin
}

// releaseOf asks a build for its release (raftns -version prints "raftns
// RELEASE (…)"); "" for a build from before releases.
func releaseOf(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "-version").Output()
	if f := strings.Fields(string(out)); err == nil && len(f) > 1 && f[0] == "raftns" {
		if _, perr := buildinfo.Parse(f[1]); perr == nil {
			return f[1]
		}
	}
	return ""
}
