package main

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSpreadOf_MinMedianMax(t *testing.T) {
	cases := []struct {
		name   string
		values []float64
		want   Spread
	}{
		{"empty", nil, Spread{}},
		{"one", []float64{5}, Spread{5, 5, 5}},
		{"odd count takes the middle", []float64{30, 10, 20}, Spread{10, 20, 30}},
		{"even count averages the middle two", []float64{40, 10, 30, 20}, Spread{10, 25, 40}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(tc.values)
			if got := spreadOf(tc.values, func(v float64) float64 { return v }); got != tc.want {
				t.Fatalf("spreadOf = %+v, want %+v", got, tc.want)
			}
			if !slices.Equal(before, tc.values) {
				t.Fatalf("spreadOf modified its input: %v, was %v", tc.values, before)
			}
		})
	}
}

func TestEachRound_NumbersRoundsAndStopsAtAnError(t *testing.T) {
	got, err := eachRound(3, func(round int) (int, error) { return 10 * round, nil })
	if err != nil || !slices.Equal(got, []int{10, 20, 30}) {
		t.Fatalf("eachRound = %v, %v; want [10 20 30]", got, err)
	}
	bad := errors.New("no leader")
	var ran []int
	got, err = eachRound(5, func(round int) (int, error) {
		ran = append(ran, round)
		if round == 2 {
			return 0, bad
		}
		return round, nil
	})
	if !errors.Is(err, bad) || !strings.Contains(err.Error(), "round 2") || !slices.Equal(ran, []int{1, 2}) || !slices.Equal(got, []int{1}) {
		t.Fatalf("eachRound = %v, %v after running %v; want round 2's error, naming it, after rounds 1 and 2", got, err, ran)
	}
}
