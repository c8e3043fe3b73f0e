package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/gctarget"
)

// TestProcessGCPercentReachesTheRuntime starts a member with the default
// and one with --gc-percent, and reads the heap target each runtime
// reports on /metrics.
func TestProcessGCPercentReachesTheRuntime(t *testing.T) {
	want := float64(gctarget.Default)
	if env := os.Getenv("GOGC"); env != "" { // the environment decides when nothing is configured
		want = 100
		if n, err := strconv.Atoi(env); err == nil {
			want = float64(n)
		} else if strings.EqualFold(env, "off") {
			want = -1
		}
	}
	def := newProc(t, "gc1")
	def.start()
	def.waitReady()
	set := newProc(t, "gc2", "--gc-percent", "150")
	set.start()
	set.waitReady()
	if got := gaugeValue(t, def, "go_gc_gogc_percent"); got != want {
		t.Errorf("member without --gc-percent runs with GC percent %v, want %v", got, want)
	}
	if got := gaugeValue(t, set, "go_gc_gogc_percent"); got != 150 {
		t.Errorf("member with --gc-percent 150 runs with GC percent %v", got)
	}
}

// gaugeValue returns the value of the member's unlabelled gauge name.
func gaugeValue(t *testing.T, p *proc, name string) float64 {
	t.Helper()
	f, ok := scrapeMetrics(t, p)[name]
	if !ok || len(f.GetMetric()) != 1 {
		t.Fatalf("/metrics has no single %s", name)
	}
	return f.GetMetric()[0].GetGauge().GetValue()
}
