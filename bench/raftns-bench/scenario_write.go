package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
)

// writeScenario measures PUT_KV_CONFIG through one member, a write that
// is audited (every one leaves an audit record, identical on every
// member) once the cluster version allows the trail: each worker puts a
// new value of its own key in a closed loop. -member-args "--audit=false"
// measures the same writes without the trail.
type writeScenario struct {
	loadFlags
	Clients   int `json:"clients"`
	ValueSize int `json:"valueSize"`
	viaFlag
}

func (s *writeScenario) bind(fs *flag.FlagSet) {
	s.loadFlags.bind(fs, 5*time.Second, "")
	fs.IntVar(&s.Clients, "clients", 8, "concurrent writers, each with its own connection and key")
	fs.IntVar(&s.ValueSize, "value-size", 64, "bytes of each value")
	s.viaFlag.bind(fs, "member to write through: leader or follower (with -addrs and no -http: the first address)")
}

func (s *writeScenario) check(c *commonOptions, set map[string]bool) error {
	if err := s.loadFlags.check(); err != nil {
		return err
	}
	if s.Clients < 1 || s.ValueSize < 1 || s.ValueSize > 1<<20 {
		return fmt.Errorf("%w: -clients must be at least 1 and -value-size from 1 to 1MiB", errUsage)
	}
	return s.viaFlag.check(c, set)
}

// writeResults is the outcome of the run.
type writeResults struct {
	Member string `json:"member"`
	throughput
	// AuditRecords is the size of the leader's audit trail after the run;
	// -1 when unknown (no -http).
	AuditRecords int `json:"auditRecords"`
}

func (s *writeScenario) run(ctx context.Context, e *env, r *Report) error {
	if err := e.finalizeUpgrade(ctx); err != nil {
		return err
	}
	via, err := e.pick(ctx, s.Via)
	if err != nil {
		return err
	}
	clients := e.newClients(s.Clients)
	defer clients.close()
	value := make([]byte, s.ValueSize)
	for i := range value {
		value[i] = 'a' + byte(i%26)
	}
	e.logf("write: %d writers putting %d-byte KV values through %s, %v", s.Clients, s.ValueSize, via.ID, s.Duration)
	seq := make([]int, s.Clients)
	out := s.phase(s.Clients).run(ctx, func(ctx context.Context, w int) error {
		seq[w]++
		v := fmt.Sprintf("%d-%s", seq[w], value)[:s.ValueSize]
		return clients[w].PutKV(ctx, via.ClientAddr, "bench", fmt.Sprintf("key-%d", w), v)
	})
	if len(out.lat) == 0 {
		return fmt.Errorf("write: %w: %v", errNoSuccess, out.firstErr)
	}
	res := writeResults{Member: via.ID, throughput: throughputOf(out.lat, out.errors, out.elapsed), AuditRecords: e.auditTotal(ctx)}
	t := Table{Title: fmt.Sprintf("PUT_KV_CONFIG, %d writers, %d-byte values", s.Clients, s.ValueSize),
		Columns: []string{"via", "requests", "errors", "ops/s", "p50 ms", "p99 ms", "max ms", "audit records"}}
	t.add(res.Member, res.Requests, res.Errors, res.OpsPerS, res.Latency.P50Ms, res.Latency.P99Ms, res.Latency.MaxMs, res.AuditRecords)
	r.show(res, t)
	if out.firstErr != nil {
		r.notef("%d requests failed; first error: %v", out.errors, out.firstErr)
	}
	return nil
}

// finalizeUpgrade raises the cluster version of the members the tool
// started, so that the features of their release (the audit trail) are
// on; it does nothing for members it did not start.
func (e *env) finalizeUpgrade(ctx context.Context) error {
	if !e.opts.starts() || !e.hasHTTP() {
		return nil
	}
	leader, err := e.leader(ctx)
	if err != nil {
		return err
	}
	resp, err := leader.Do(ctx, http.MethodPost, "/v1/upgrade/finalize")
	if err != nil {
		return fmt.Errorf("finalize the upgrade: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("finalize the upgrade: HTTP %d", resp.StatusCode)
	}
	return nil
}

// auditTotal is the size of the leader's audit trail, -1 when unknown.
func (e *env) auditTotal(ctx context.Context) int {
	if !e.hasHTTP() {
		return -1
	}
	leader, err := e.leader(ctx)
	if err != nil {
		return -1
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	resp, err := leader.Get(ctx, "/v1/audit?limit=1")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var page adminapi.AuditPage
	if json.NewDecoder(resp.Body).Decode(&page) != nil {
		return -1
	}
	return page.Total
}
