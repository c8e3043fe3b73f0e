package feature

import (
	"errors"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/buildinfo"
)

func TestGate_AllowsOnlyWhatTheClusterVersionReaches(t *testing.T) {
	version := buildinfo.MustParse(buildinfo.Baseline)
	g := NewGate(func() buildinfo.Version { return version })
	newer := Feature{Name: "newer", Since: buildinfo.MustParse("0.3.0")}
	if g.Allows(ClusterVersion) || g.Allows(newer) || !g.Allows(Feature{}) {
		t.Fatal("a baseline cluster must allow nothing gated, and the zero feature always")
	}
	err := g.Check(newer)
	var ne *NotEnabledError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "needs cluster version 0.3.0") ||
		!strings.Contains(err.Error(), "runs at 0.1.0") || !strings.Contains(err.Error(), "raftnsctl upgrade finalize") {
		t.Fatalf("Check = %v", err)
	}
	version = buildinfo.MustParse("0.2.0")
	if !g.Allows(ClusterVersion) || g.Allows(newer) || g.Check(ClusterVersion) != nil {
		t.Fatal("cluster version 0.2.0 must allow 0.2.0 features only")
	}
}

func TestTable_HoldsEveryFeatureOnceAndNoneNewerThanThisBuild(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range All() {
		if seen[f.Name] || buildinfo.Current().Less(f.Since) {
			t.Fatalf("feature %s: declared twice or newer than this build %s", f, buildinfo.Release)
		}
		seen[f.Name] = true
	}
	if !seen[ClusterVersion.Name] {
		t.Fatal("cluster-version missing from the table")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("declaring a name twice must fail at load")
		}
	}()
	declare(ClusterVersion.Name, "0.2.0")
}

func TestTooNewError_NamesBothReleases(t *testing.T) {
	err := error(&TooNewError{What: "log entry 12 (type 99)", Needs: "0.9.0"})
	for _, want := range []string{"log entry 12 (type 99)", "release " + buildinfo.Release, "release 0.9.0 or newer"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("%q lacks %q", err, want)
		}
	}
	if !errors.Is(err, ErrTooNew) || !strings.Contains((&TooNewError{What: "x"}).Error(), "a newer release") {
		t.Fatal("ErrTooNew must match, and a missing release must read as a newer release")
	}
}

func TestMethod_CarriesTheReleaseAndSplitsBack(t *testing.T) {
	f := Feature{Name: "x", Since: buildinfo.MustParse("0.3.0")}
	if m := Method(f, "Rebalance"); m != "Rebalance@0.3.0" {
		t.Fatalf("Method = %q", m)
	}
	if name, release := SplitMethod("Rebalance@0.3.0"); name != "Rebalance" || release != "0.3.0" {
		t.Fatalf("SplitMethod = %q, %q", name, release)
	}
	if name, release := SplitMethod("Status"); name != "Status" || release != "" {
		t.Fatalf("SplitMethod of a plain name = %q, %q", name, release)
	}
}
