package main

import (
	"fmt"
	"strconv"
	"strings"
)

// compareRow is one figure at one concurrency: ops/s per round and their
// median.
type compareRow struct {
	Figure  string    `json:"figure"`
	Clients int       `json:"clients"`
	Rounds  []float64 `json:"opsPerSecondByRound"`
	Median  float64   `json:"medianOpsPerSecond"`
	Errors  int       `json:"errors"`
	P50Ms   []float64 `json:"p50MsByRound"`
	Ceiling string    `json:"ceiling,omitempty"`
	Ratio   float64   `json:"ratio,omitempty"`
	// RoundRatios are the ratios of each round's figures (same round,
	// measured seconds apart); RatioOfRounds is their median, which a
	// round disturbed by other work on the machine moves less.
	RoundRatios   []float64 `json:"roundRatios,omitempty"`
	RatioOfRounds float64   `json:"ratioOfRoundsMedian,omitempty"`
	Target        float64   `json:"target,omitempty"`
	TargetMet     bool      `json:"targetMet,omitempty"`
}

type compareResults struct {
	Rows []*compareRow `json:"rows"`
	// HeartbeatLogEntries is the growth of the three-member cluster's log
	// during the heartbeat figures: it must be 0.
	HeartbeatLogEntries int64 `json:"heartbeatLogEntries"`
	RouteBodyBytes      int   `json:"routeBodyBytes"`
}

func (s *compareScenario) ratioTable(rows []*compareRow) Table {
	t := Table{
		Title:   fmt.Sprintf("RaftNS as a ratio of its ceiling (median of %d rounds of %v)", s.Rounds, s.Duration),
		Columns: []string{"figure", "clients", "ops/s", "ceiling", "ceiling ops/s", "ratio", "target", "met", "ratio by round", "median of those"},
	}
	byKey := map[string]*compareRow{}
	for _, r := range rows {
		byKey[r.Figure+"/"+strconv.Itoa(r.Clients)] = r
	}
	for _, spec := range compareRatios {
		for _, r := range rows {
			if r.Figure != spec.figure || r.Ceiling != spec.ceiling {
				continue
			}
			ceil := byKey[r.Ceiling+"/"+strconv.Itoa(r.Clients)]
			var byRound []string
			for _, x := range r.RoundRatios {
				byRound = append(byRound, fmt.Sprintf("%.2f", x))
			}
			t.add(r.Figure, r.Clients, r.Median, r.Ceiling, ceil.Median, fmt.Sprintf("%.2f×", r.Ratio),
				fmt.Sprintf("≥ %.2f×", r.Target), map[bool]string{true: "yes", false: "NO"}[r.TargetMet],
				strings.Join(byRound, " / "), fmt.Sprintf("%.2f×", r.RatioOfRounds))
		}
	}
	return t
}

func (s *compareScenario) figureTable(rows []*compareRow) Table {
	t := Table{Title: "every figure, ops/s by round", Columns: []string{"figure", "clients", "rounds ops/s", "median", "p50 ms by round", "errors"}}
	for _, r := range rows {
		var ops, p50 []string
		for i := range r.Rounds {
			ops = append(ops, cell(r.Rounds[i]))
			p50 = append(p50, cell(r.P50Ms[i]))
		}
		t.add(r.Figure, r.Clients, strings.Join(ops, " / "), r.Median, strings.Join(p50, " / "), r.Errors)
	}
	return t
}
