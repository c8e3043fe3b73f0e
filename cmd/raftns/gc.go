package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/raftns/raftns/internal/gctarget"
)

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
// from (gctarget.Target).
func (c *config) gcTarget(getenv func(string) string) (percent int, source string, set bool) {
	return gctarget.Target(c.GCPercent, getenv)
}

// gcPercentProperty is the gcPercent that raftns -p and GET_NAMESRV_CONFIG
// show: the target in force, which is GOGC's own value when the
// environment decides.
func (c *config) gcPercentProperty(getenv func(string) string) string {
	percent, _, set := c.gcTarget(getenv)
	if !set {
		return getenv("GOGC")
	}
	return strconv.Itoa(percent)
}

// applyGCTarget sets the collector's heap target and describes it for the
// start log.
func (c *config) applyGCTarget(getenv func(string) string) string {
	return gctarget.Apply(c.GCPercent, getenv)
}
