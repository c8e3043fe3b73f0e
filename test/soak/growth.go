package soak

import (
	"fmt"
	"math"
)

// Metric names a sampled figure of one member.
type Metric string

// The sampled figures.
const (
	RSS        Metric = "rss_bytes"
	Goroutines Metric = "goroutines"
	OpenFDs    Metric = "open_fds"
	DataDir    Metric = "datadir_bytes"
	Snapshots  Metric = "snapshots"
	LogBytes   Metric = "log_bytes"
)

// Metrics lists the figures in the order the samples file has them.
var Metrics = []Metric{RSS, Goroutines, OpenFDs, DataDir, Snapshots, LogBytes}

// Tolerance is how far the last third of a run may rise above the middle
// third before a figure counts as growing: the last third's maximum may
// exceed the middle third's maximum by Rel of it plus Abs.
type Tolerance struct {
	Rel float64
	Abs float64
}

// Tolerances per figure. Memory moves with the garbage collector's
// cycles and the log and snapshot files with the snapshot schedule, so
// they get room for one such swing; goroutines and descriptors move with
// connections that come and go.
var Tolerances = map[Metric]Tolerance{
	RSS:        {Rel: 0.25, Abs: 16 << 20},
	Goroutines: {Rel: 0.15, Abs: 30},
	OpenFDs:    {Rel: 0.15, Abs: 15},
	DataDir:    {Rel: 0.50, Abs: 16 << 20},
	Snapshots:  {Rel: 0, Abs: 1},
	LogBytes:   {Rel: 0.50, Abs: 16 << 20},
}

// Verdict is the growth rule's finding for one member's figure.
type Verdict struct {
	Member    string
	Metric    Metric
	MiddleMax float64
	LastMax   float64
	Limit     float64
	Growing   bool
}

func (v Verdict) String() string {
	state := "levels off"
	if v.Growing {
		state = "GROWS"
	}
	return fmt.Sprintf("%s %s: middle third max %.0f, last third max %.0f, limit %.0f: %s",
		v.Member, v.Metric, v.MiddleMax, v.LastMax, v.Limit, state)
}

// Judge applies the growth rule to one series of samples taken at a
// steady pace: the samples are split into thirds by count, the first
// third (warm-up, caches filling, the restart) is ignored, and the figure
// grows when the last third's maximum exceeds the middle third's maximum
// by more than tol allows. A series of fewer than six samples cannot be
// judged and is reported as growing, so a run too short to tell fails.
func Judge(member string, m Metric, series []float64, tol Tolerance) Verdict {
	v := Verdict{Member: member, Metric: m}
	if len(series) < 6 {
		v.Growing = true
		return v
	}
	third := len(series) / 3
	v.MiddleMax = maxOf(series[third : 2*third])
	v.LastMax = maxOf(series[2*third:])
	v.Limit = v.MiddleMax*(1+tol.Rel) + tol.Abs
	v.Growing = v.LastMax > v.Limit
	return v
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}
