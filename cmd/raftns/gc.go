package main

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/raftns/raftns/cluster"
)

// defaultGCPercent is the heap target a member runs with unless told
// otherwise (cluster.DefaultGCPercent explains the choice).
const defaultGCPercent = cluster.DefaultGCPercent

// GC percent bounds: below 10 the collector runs almost constantly, above
// 1000 the heap may grow to 11 times what is live.
const (
	minGCPercent = 10
	maxGCPercent = 1000
)

// parseGCPercent reads a gcPercent value.
func parseGCPercent(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < minGCPercent || n > maxGCPercent {
		return 0, fmt.Errorf("%q is not a GC percent from %d to %d", v, minGCPercent, maxGCPercent)
	}
	return n, nil
}

// gcTarget is the GC percent a member sets at start, and where it comes
// from; set is false when the GOGC environment variable decides, as it
// does when no gcPercent was configured.
func (c *config) gcTarget(getenv func(string) string) (percent int, source string, set bool) {
	if !c.gcPercentSet {
		if env := getenv("GOGC"); env != "" {
			return 0, "GOGC=" + env, false
		}
		return c.GCPercent, "default", true
	}
	return c.GCPercent, "configured", true
}

// applyGCTarget sets the collector's heap target and describes it for the
// start log.
func (c *config) applyGCTarget(getenv func(string) string) string {
	percent, source, set := c.gcTarget(getenv)
	if !set {
		return source
	}
	debug.SetGCPercent(percent)
	return fmt.Sprintf("%d (%s)", percent, source)
}
