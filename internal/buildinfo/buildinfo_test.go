package buildinfo

import (
	"errors"
	"runtime/debug"
	"strings"
	"testing"
)

func TestParse_ReadsReleasesAndRefusesTheRest(t *testing.T) {
	for in, want := range map[string]Version{
		"0.2.0": {0, 2, 0}, "v1.10.3": {1, 10, 3}, "0.2.0-dev": {0, 2, 0}, "2.0.1+abc": {2, 0, 1}, "": MustParse(Baseline),
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1", "1.2", "1.2.3.4", "a.b.c", "1..2", "-1.0.0", "1.2.99999999999"} {
		if _, err := Parse(in); !errors.Is(err, ErrBadVersion) {
			t.Errorf("Parse(%q) = %v, want ErrBadVersion", in, err)
		}
	}
}

func TestVersion_LessOrdersByMajorMinorPatch(t *testing.T) {
	order := []string{"0.1.0", "0.1.9", "0.2.0", "0.10.0", "1.0.0", "1.0.1"}
	for i := range order {
		for j := range order {
			a, b := MustParse(order[i]), MustParse(order[j])
			if a.Less(b) != (i < j) {
				t.Errorf("%s < %s = %v", a, b, a.Less(b))
			}
		}
	}
	if Current().String() != Release || !MustParse(Baseline).Less(Current()) {
		t.Fatalf("Release %s must parse and be newer than Baseline %s", Release, Baseline)
	}
}

func TestGet_StampedValuesWinAndVCSIsTheFallback(t *testing.T) {
	defer func(c, d string) { commit, describe = c, d }(commit, describe)
	commit, describe = "0123456789abcdef0123", "v0.2.0-3-g0123456"
	in := Get()
	if in.Commit != commit || in.Module != describe || in.Release != Release {
		t.Fatalf("Get() = %+v, want the stamped values", in)
	}
	if in.ShortCommit() != "0123456789ab" || !strings.HasPrefix(in.String("raftns"), "raftns "+Release+" (module v0.2.0-3-g0123456, commit 0123") {
		t.Fatalf("short %q, line %q", in.ShortCommit(), in.String("raftns"))
	}
	got := vcsCommit([]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}})
	if got != "abc+dirty" {
		t.Fatalf("vcsCommit = %q, want abc+dirty", got)
	}
	commit = ""
	if c := Get().Commit; c == "" {
		t.Fatal("an unstamped build has an empty commit; want the VCS one or unknown")
	}
}
