package main

import (
	"math"
	"slices"
	"time"
)

// Summary is the distribution of a set of latencies, in milliseconds so
// that the JSON output is easy to plot.
type Summary struct {
	Count  int     `json:"count"`
	MinMs  float64 `json:"minMs"`
	MeanMs float64 `json:"meanMs"`
	P50Ms  float64 `json:"p50Ms"`
	P90Ms  float64 `json:"p90Ms"`
	P99Ms  float64 `json:"p99Ms"`
	P999Ms float64 `json:"p999Ms"`
	MaxMs  float64 `json:"maxMs"`
}

// throughput is what one load did in its measured window, as register,
// route and write report it.
type throughput struct {
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	OpsPerS  float64 `json:"opsPerSecond"`
	Latency  Summary `json:"latency"`
}

// throughputOf sums up a window: lat holds the latencies of the requests
// that succeeded (it is sorted in place), errors counts the others.
func throughputOf(lat []time.Duration, errors int, window time.Duration) throughput {
	return throughput{Requests: len(lat), Errors: errors, OpsPerS: rate(len(lat), window), Latency: summarize(lat)}
}

// cells are t's table cells: requests, errors, ops/s, then p50, p99, p999
// and maximum latency in milliseconds.
func (t throughput) cells() []any {
	return []any{t.Requests, t.Errors, t.OpsPerS, t.Latency.P50Ms, t.Latency.P99Ms, t.Latency.P999Ms, t.Latency.MaxMs}
}

// summarize returns the distribution of samples; it sorts samples in place.
// An empty set gives a zero Summary.
func summarize(samples []time.Duration) Summary {
	if len(samples) == 0 {
		return Summary{}
	}
	slices.Sort(samples)
	var total time.Duration
	for _, d := range samples {
		total += d
	}
	return Summary{
		Count:  len(samples),
		MinMs:  ms(samples[0]),
		MeanMs: ms(total / time.Duration(len(samples))),
		P50Ms:  ms(percentile(samples, 0.50)),
		P90Ms:  ms(percentile(samples, 0.90)),
		P99Ms:  ms(percentile(samples, 0.99)),
		P999Ms: ms(percentile(samples, 0.999)),
		MaxMs:  ms(samples[len(samples)-1]),
	}
}

// percentile returns the nearest-rank q-quantile (0 < q ≤ 1) of sorted: the
// smallest sample such that at least q of all samples are at or below it.
// q outside (0,1] is clamped; an empty slice gives 0.
func percentile(sorted []time.Duration, q float64) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(q*float64(n) - 1e-9))
	return sorted[min(max(rank, 1), n)-1]
}

// ms converts a duration to fractional milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// rate returns n per second over d, 0 for a non-positive d.
func rate(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// median returns the median of values (the mean of the middle two for an
// even count), 0 for none.
func median(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := slices.Clone(values)
	slices.Sort(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}
