package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// auditScanScenario measures what audit queries cost writes: PUT_KV_CONFIG
// throughput through the leader with and without readers asking GET
// /v1/audit in closed loops against a trail of -trail records, in
// alternating phases of one run, as a ratio.
type auditScanScenario struct {
	loadFlags
	Clients int    `json:"clients"`
	Readers int    `json:"readers"`
	Trail   int    `json:"trail"`
	Rounds  int    `json:"rounds"`
	Query   string `json:"query"`
}

func (s *auditScanScenario) bind(fs *flag.FlagSet) {
	s.loadFlags.bind(fs, 5*time.Second, "phase")
	fs.IntVar(&s.Clients, "clients", 8, "concurrent writers, each with its own connection and key")
	fs.IntVar(&s.Readers, "readers", 16, "concurrent audit readers in the phases with readers")
	fs.IntVar(&s.Trail, "trail", 100_000, "audit records the trail holds before measuring (started members keep exactly this many)")
	fs.IntVar(&s.Rounds, "rounds", 3, "pairs of phases, without and with readers, alternating which goes first")
	fs.StringVar(&s.Query, "query", "kind=no-such-kind", "the readers' GET /v1/audit query (who=nobody makes every query examine the trail)")
}

func (s *auditScanScenario) check(c *commonOptions, _ map[string]bool) error {
	if err := s.loadFlags.check(); err != nil {
		return err
	}
	if s.Clients < 1 || s.Readers < 1 || s.Rounds < 1 || s.Trail < 1 || s.Trail > 1_000_000 {
		return fmt.Errorf("%w: -clients, -readers and -rounds must be at least 1, -trail from 1 to 1000000", errUsage)
	}
	if _, err := url.ParseQuery(s.Query); err != nil {
		return fmt.Errorf("%w: -query: %v", errUsage, err)
	}
	if c.starts() {
		c.MemberArgs = append(c.MemberArgs, "--audit-max-records", strconv.Itoa(s.Trail))
	}
	return nil
}

// auditScanPhase is one measured phase.
type auditScanPhase struct {
	Round   int `json:"round"`
	Readers int `json:"readers"`
	throughput
	// Queries is how many audit queries the readers completed.
	Queries int `json:"queries"`
}

// auditScanResults is the outcome: every phase, and the ratio of the
// writes a second with readers to those without, over all rounds.
type auditScanResults struct {
	Phases       []auditScanPhase `json:"phases"`
	TrailRecords int              `json:"trailRecords"`
	Ratio        float64          `json:"ratio"`
}

func (s *auditScanScenario) run(ctx context.Context, e *env, r *Report) error {
	if !e.hasHTTP() {
		return fmt.Errorf("%w: audit-scan reads GET /v1/audit: start members or give -http", errUsage)
	}
	if err := e.finalizeUpgrade(ctx); err != nil {
		return err
	}
	leader, err := e.leader(ctx)
	if err != nil {
		return err
	}
	clients := e.newClients(max(s.Clients, 32))
	defer clients.close()
	seq := make([]atomic.Int64, len(clients))
	put := func(ctx context.Context, w int) error {
		n := seq[w].Add(1)
		return clients[w].PutKV(ctx, leader.ClientAddr, "bench", fmt.Sprintf("key-%d", w), strconv.FormatInt(n, 10))
	}
	if err := s.fill(ctx, e, put, len(clients)); err != nil {
		return err
	}
	res := auditScanResults{TrailRecords: e.auditTotal(ctx)}
	e.logf("audit-scan: %d writers, %d readers asking %q of a trail of %d, %d rounds of %v phases",
		s.Clients, s.Readers, s.Query, res.TrailRecords, s.Rounds, s.Duration)
	var alone, scanned float64
	for round := 1; round <= s.Rounds; round++ {
		order := []int{0, s.Readers}
		if round%2 == 0 {
			order = []int{s.Readers, 0}
		}
		for _, readers := range order {
			p, err := s.phase(ctx, leader.HTTPAddr, readers, put)
			if err != nil {
				return err
			}
			p.Round = round
			res.Phases = append(res.Phases, p)
			if readers == 0 {
				alone += p.OpsPerS
			} else {
				scanned += p.OpsPerS
			}
		}
	}
	if alone > 0 {
		res.Ratio = scanned / alone
	}
	t := Table{Title: fmt.Sprintf("PUT_KV_CONFIG, %d writers, with and without %d readers of GET /v1/audit?%s (trail of %d)",
		s.Clients, s.Readers, s.Query, res.TrailRecords),
		Columns: []string{"round", "readers", "requests", "errors", "ops/s", "p50 ms", "p99 ms", "max ms", "audit queries"}}
	for _, p := range res.Phases {
		t.add(p.Round, p.Readers, p.Requests, p.Errors, p.OpsPerS, p.Latency.P50Ms, p.Latency.P99Ms, p.Latency.MaxMs, p.Queries)
	}
	r.show(res, t)
	r.notef("writes a second with readers / without, summed over the rounds: %.2f", res.Ratio)
	return nil
}

// fill writes until the leader's trail holds -trail records.
func (s *auditScanScenario) fill(ctx context.Context, e *env, put func(context.Context, int) error, workers int) error {
	for {
		total := e.auditTotal(ctx)
		if total < 0 {
			return fmt.Errorf("audit-scan: cannot read the trail's size")
		}
		need := s.Trail - total
		if need <= 0 {
			return nil
		}
		e.logf("audit-scan: filling the trail, %d of %d records", total, s.Trail)
		// A failed write (a timeout on a loaded machine) is not retried:
		// the next pass writes what is still missing.
		var left atomic.Int64
		left.Store(int64(need))
		var wg sync.WaitGroup
		var lastErr atomic.Value
		for w := range workers {
			wg.Go(func() {
				for left.Add(-1) >= 0 && ctx.Err() == nil {
					if err := put(ctx, w); err != nil {
						lastErr.Store(err)
					}
				}
			})
		}
		wg.Wait()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if after := e.auditTotal(ctx); after <= total {
			err, _ := lastErr.Load().(error)
			return fmt.Errorf("audit-scan: the trail stays at %d records (is the trail on, --audit-max-records at least %d?); last write error: %v", after, s.Trail, err)
		}
	}
}

// phase measures the writers with readers audit readers beside them.
func (s *auditScanScenario) phase(ctx context.Context, httpAddr string, readers int, put func(context.Context, int) error) (auditScanPhase, error) {
	rctx, stop := context.WithCancel(ctx)
	var queries atomic.Int64
	var readErr atomic.Value
	var wg sync.WaitGroup
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: readers}}
	target := "http://" + httpAddr + "/v1/audit?" + s.Query
	for range readers {
		wg.Go(func() {
			for rctx.Err() == nil {
				if err := auditQueryOnce(rctx, client, target); err != nil {
					if rctx.Err() == nil {
						readErr.CompareAndSwap(nil, err)
					}
					return
				}
				queries.Add(1)
			}
		})
	}
	out := s.loadFlags.phase(s.Clients).run(ctx, put)
	stop()
	wg.Wait()
	client.CloseIdleConnections()
	if err, _ := readErr.Load().(error); err != nil {
		return auditScanPhase{}, fmt.Errorf("audit-scan: reader: %w", err)
	}
	if len(out.lat) == 0 {
		return auditScanPhase{}, fmt.Errorf("audit-scan: %w: %v", errNoSuccess, out.firstErr)
	}
	return auditScanPhase{Readers: readers, throughput: throughputOf(out.lat, out.errors, out.elapsed),
		Queries: int(queries.Load())}, nil
}

// auditQueryOnce asks target once and reads the whole answer.
func auditQueryOnce(ctx context.Context, c *http.Client, target string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /v1/audit answered %s", resp.Status)
	}
	return nil
}
