package main

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func durations(ms ...int) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, m := range ms {
		out[i] = time.Duration(m) * time.Millisecond
	}
	return out
}

func oneTo(n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i+1) * time.Millisecond
	}
	return out
}

func TestPercentile_NearestRank(t *testing.T) {
	cases := []struct {
		name   string
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{"empty is zero", nil, 0.5, 0},
		{"single sample is every percentile", durations(7), 0.999, 7 * time.Millisecond},
		{"median of ten is the fifth", oneTo(10), 0.5, 5 * time.Millisecond},
		{"p90 of ten is the ninth", oneTo(10), 0.9, 9 * time.Millisecond},
		{"p99 of ten is the largest", oneTo(10), 0.99, 10 * time.Millisecond},
		{"p100 is the largest", oneTo(10), 1, 10 * time.Millisecond},
		{"q zero clamps to the smallest", oneTo(10), 0, time.Millisecond},
		{"q above one clamps to the largest", oneTo(10), 1.5, 10 * time.Millisecond},
		{"p999 of a thousand is the 999th", oneTo(1000), 0.999, 999 * time.Millisecond},
		{"p99 of a hundred is the 99th", oneTo(100), 0.99, 99 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := percentile(tc.sorted, tc.q); got != tc.want {
				t.Fatalf("percentile(%d samples, %v) = %v, want %v", len(tc.sorted), tc.q, got, tc.want)
			}
		})
	}
}

func TestSummarize_ShuffledSamples(t *testing.T) {
	samples := oneTo(1000)
	rand.Shuffle(len(samples), func(i, j int) { samples[i], samples[j] = samples[j], samples[i] })
	got := summarize(samples)
	want := Summary{Count: 1000, MinMs: 1, MeanMs: 500.5, P50Ms: 500, P90Ms: 900, P99Ms: 990, P999Ms: 999, MaxMs: 1000}
	if got != want {
		t.Fatalf("summarize = %+v, want %+v", got, want)
	}
	if !slices.IsSorted(samples) {
		t.Fatal("summarize did not sort its samples in place, as documented")
	}
}

func TestSummarize_EmptyIsZero(t *testing.T) {
	if got := summarize(nil); got != (Summary{}) {
		t.Fatalf("summarize(nil) = %+v, want zero", got)
	}
}

func TestRate_PerSecond(t *testing.T) {
	cases := []struct {
		name string
		n    int
		d    time.Duration
		want float64
	}{
		{"ten in two seconds", 10, 2 * time.Second, 5},
		{"zero duration", 10, 0, 0},
		{"negative duration", 10, -time.Second, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := rate(tc.n, tc.d); got != tc.want {
				t.Fatalf("rate(%d, %v) = %v, want %v", tc.n, tc.d, got, tc.want)
			}
		})
	}
}
