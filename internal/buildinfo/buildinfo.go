// Package buildinfo says which build of RaftNS this is: the release it was
// built from (what members compare when they decide which features every
// member supports) and the commit, stamped at build time.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Release is the release this source tree is. Members compare releases
// (cluster/gate); bump it when a release adds a log entry type, a snapshot
// record or an RPC. Builds older than versioned releases report none and
// count as Baseline.
const Release = "0.4.0"

// Baseline is the release a member that reports no version is taken to be:
// every build before versions were exchanged.
const Baseline = "0.1.0"

// Set at build time by the Makefile:
//
//	go build -ldflags "-X github.com/raftns/raftns/internal/buildinfo.commit=$(git rev-parse HEAD)
//	                   -X github.com/raftns/raftns/internal/buildinfo.describe=$(git describe --always --dirty)"
//
// A plain "go build" in a checkout falls back to the commit Go records
// (vcs.revision).
var (
	commit   string
	describe string
)

// Info is one build's identity.
type Info struct {
	// Release is the release the source is (Release).
	Release string `json:"release"`
	// Module is the module version Go recorded, or what the Makefile
	// stamped ("git describe"); "(devel)" for an unstamped local build.
	Module string `json:"module"`
	// Commit is the source commit, with "+dirty" for uncommitted changes;
	// "unknown" when neither the Makefile nor Go recorded one.
	Commit    string `json:"commit"`
	GoVersion string `json:"goVersion"`
}

// Get returns this build's identity.
func Get() Info {
	in := Info{Release: Release, Module: "(devel)", Commit: commit, GoVersion: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if ok && bi.Main.Version != "" {
		in.Module = bi.Main.Version
	}
	if describe != "" {
		in.Module = describe
	}
	if in.Commit == "" && ok {
		in.Commit = vcsCommit(bi.Settings)
	}
	if in.Commit == "" {
		in.Commit = "unknown"
	}
	return in
}

// vcsCommit is the commit Go stamped from the checkout, if any.
func vcsCommit(settings []debug.BuildSetting) string {
	var rev string
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "+dirty"
	}
	return rev
}

// String is the one line "--version" prints, e.g.
// "raftns 0.2.0 (module v0.0.0-…, commit 1a2b3c4…, go1.26.8)".
func (in Info) String(program string) string {
	return fmt.Sprintf("%s %s (module %s, commit %s, %s)", program, in.Release, in.Module, in.Commit, in.GoVersion)
}

// ShortCommit is the commit's first 12 characters, for status lines.
func (in Info) ShortCommit() string {
	c, dirty := strings.CutSuffix(in.Commit, "+dirty")
	if len(c) > 12 {
		c = c[:12]
	}
	if dirty {
		c += "+dirty"
	}
	return c
}
