// Package gctarget sets the Go garbage collector's heap target of a RaftNS
// process: the one rule a member (raftns --gc-percent) and raftns-bench's
// raw servers share, so that the two run alike.
package gctarget

import (
	"fmt"
	"runtime/debug"
)

// Default is the heap target a member runs with unless configured
// otherwise. A member's live heap is small while every write allocates
// tens of kilobytes, so Go's default of 100 collects many times a second
// under writes (docs/operators/operations.md, "Memory and garbage collection", has
// the measurements).
const Default = 300

// Target is the GC percent to set and where it comes from. configured is
// the configured percent, 0 when none was given; then the GOGC environment
// variable decides when set (set is false: the runtime already applied
// it), and Default otherwise.
func Target(configured int, getenv func(string) string) (percent int, source string, set bool) {
	if configured > 0 {
		return configured, "configured", true
	}
	if env := getenv("GOGC"); env != "" {
		return 0, "GOGC=" + env, false
	}
	return Default, "default", true
}

// Apply sets the target Target chooses and describes it for a log line.
func Apply(configured int, getenv func(string) string) string {
	percent, source, set := Target(configured, getenv)
	if !set {
		return source
	}
	debug.SetGCPercent(percent)
	return fmt.Sprintf("%d (%s)", percent, source)
}
