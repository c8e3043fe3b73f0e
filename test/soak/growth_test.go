package soak

import "testing"

func ramp(n int, from, step float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = from + step*float64(i)
	}
	return out
}

func TestJudge_SteadyAndLevellingSeriesPassAndALeakFails(t *testing.T) {
	tol := Tolerance{Rel: 0.1, Abs: 5}
	steady := []float64{100, 130, 90, 120, 100, 125, 95, 120, 110, 118, 99, 124}
	if v := Judge("n1", Goroutines, steady, tol); v.Growing {
		t.Fatalf("steady series judged growing: %s", v)
	}
	// Warm-up growth in the first third, flat afterwards.
	levelling := append(ramp(10, 10, 10), 100, 101, 100, 102, 101, 100, 101, 102, 100, 101, 100, 102, 101, 100, 101, 102, 100, 101, 100, 102)
	if v := Judge("n1", RSS, levelling, tol); v.Growing {
		t.Fatalf("levelling series judged growing: %s", v)
	}
	// A slow leak: one unit per sample from 100 over 60 samples: the last
	// third's max (159) is past the middle's (139) × 1.1 + 5 = 157.9.
	leak := ramp(60, 100, 1)
	v := Judge("n2", OpenFDs, leak, tol)
	if !v.Growing || v.MiddleMax != 139 || v.LastMax != 159 {
		t.Fatalf("leak: %s, want growing with maxima 139 and 159", v)
	}
	if v := Judge("n3", Snapshots, []float64{2, 3, 2}, Tolerances[Snapshots]); !v.Growing {
		t.Fatal("a series too short to judge must fail")
	}
}
