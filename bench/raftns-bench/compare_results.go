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

// compareRecorder collects each figure's ops/s per round, one row per
// figure and concurrency in the order they were first measured.
type compareRecorder struct {
	e     *env
	rows  map[string]*compareRow
	order []*compareRow
}

func rowKey(figure string, clients int) string { return figure + "/" + strconv.Itoa(clients) }

// record adds one round of figure at c clients.
func (rec *compareRecorder) record(figure string, c int, out loadOutcome) {
	row := rec.rows[rowKey(figure, c)]
	if row == nil {
		row = &compareRow{Figure: figure, Clients: c}
		rec.rows[rowKey(figure, c)] = row
		rec.order = append(rec.order, row)
	}
	tp := throughputOf(out.lat, out.errors, out.elapsed)
	row.Rounds = append(row.Rounds, tp.OpsPerS)
	row.Errors += tp.Errors
	row.P50Ms = append(row.P50Ms, tp.Latency.P50Ms)
	rec.e.logf("  %-75s c=%-3d %9.0f ops/s  errors %d", figure, c, tp.OpsPerS, tp.Errors)
	if out.firstErr != nil {
		rec.e.logf("    first error: %v", out.firstErr)
	}
}

// finish computes each row's median and, for a figure with a ceiling
// (compareRatios), its ratio to the ceiling at the same concurrency: of
// the medians, and the median of the rounds' ratios. It returns the rows.
func (rec *compareRecorder) finish() []*compareRow {
	for _, row := range rec.order {
		row.Median = median(row.Rounds)
	}
	for _, spec := range compareRatios {
		for _, row := range rec.order {
			ceil := rec.rows[rowKey(spec.ceiling, row.Clients)]
			if row.Figure != spec.figure || ceil == nil || ceil.Median <= 0 {
				continue
			}
			row.Ceiling, row.Target = spec.ceiling, spec.target
			row.Ratio = row.Median / ceil.Median
			row.TargetMet = row.Ratio >= spec.target
			for i := range min(len(row.Rounds), len(ceil.Rounds)) {
				if ceil.Rounds[i] > 0 {
					row.RoundRatios = append(row.RoundRatios, row.Rounds[i]/ceil.Rounds[i])
				}
			}
			row.RatioOfRounds = median(row.RoundRatios)
		}
	}
	return rec.order
}

func (s *compareScenario) ratioTable(rows []*compareRow) Table {
	t := Table{
		Title:   fmt.Sprintf("RaftNS as a ratio of its ceiling (median of %d rounds of %v)", s.Rounds, s.Duration),
		Columns: []string{"figure", "clients", "ops/s", "ceiling", "ceiling ops/s", "ratio", "target", "met", "ratio by round", "median of those"},
	}
	byKey := map[string]*compareRow{}
	for _, r := range rows {
		byKey[rowKey(r.Figure, r.Clients)] = r
	}
	for _, spec := range compareRatios {
		for _, r := range rows {
			if r.Figure != spec.figure || r.Ceiling != spec.ceiling {
				continue
			}
			ceil := byKey[rowKey(r.Ceiling, r.Clients)]
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
