package main

import (
	"fmt"
	"slices"
)

// eachRound runs one, numbering the rounds from 1, and returns their
// outcomes; an error ends the run and names its round.
func eachRound[R any](rounds int, one func(round int) (R, error)) ([]R, error) {
	var out []R
	for round := 1; round <= rounds; round++ {
		r, err := one(round)
		if err != nil {
			return out, fmt.Errorf("round %d: %w", round, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// Spread is the minimum, median and maximum of a measure repeated over a
// few rounds, in milliseconds.
type Spread struct {
	MinMs    float64 `json:"minMs"`
	MedianMs float64 `json:"medianMs"`
	MaxMs    float64 `json:"maxMs"`
}

// spreadOf returns the spread of one measure, in milliseconds, over the
// rounds; zero for none.
func spreadOf[R any](rounds []R, ms func(R) float64) Spread {
	if len(rounds) == 0 {
		return Spread{}
	}
	values := make([]float64, len(rounds))
	for i, r := range rounds {
		values[i] = ms(r)
	}
	return Spread{MinMs: slices.Min(values), MedianMs: median(values), MaxMs: slices.Max(values)}
}

// measureSpread is one row of a spread table.
type measureSpread struct {
	name string
	Spread
}

// spreadTable is the summary of measures over rounds rounds.
func spreadTable(rounds int, measures ...measureSpread) Table {
	t := Table{Title: fmt.Sprintf("summary over %d rounds (ms)", rounds), Columns: []string{"measure", "min", "median", "max"}}
	for _, m := range measures {
		t.add(m.name, m.MinMs, m.MedianMs, m.MaxMs)
	}
	return t
}
