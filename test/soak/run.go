package soak

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// Config describes one soak.
type Config struct {
	Binary string
	// Dir holds the members' data dirs and logs.
	Dir      string
	Duration time.Duration
	// Brokers register every Heartbeat with every member.
	Brokers   int
	Heartbeat time.Duration
	// SampleEvery is the sampling period; TransferEvery the period of
	// leader transfers. The member restart happens at a fifth of the run,
	// inside the first third the growth rule ignores.
	SampleEvery, TransferEvery time.Duration
	// MemberArgs are extra flags of every member.
	MemberArgs []string
}

// Result is what a soak saw.
type Result struct {
	Samples   []Sample
	Verdicts  []Verdict
	Counts    *Counts
	Transfers int
	Restarts  int
	// Expired counts "broker expired" lines in the members' logs: every
	// fake broker heartbeats, so none may expire.
	Expired int
	Notes   []string
}

// Growing returns the verdicts of figures that did not level off.
func (r *Result) Growing() []Verdict {
	var out []Verdict
	for _, v := range r.Verdicts {
		if v.Growing {
			out = append(out, v)
		}
	}
	return out
}

// Run boots three members, loads them for cfg.Duration with a leader
// transfer every TransferEvery and one restart, samples them, and judges
// every member's figures.
func Run(cfg Config) (*Result, error) {
	res := &Result{Counts: &Counts{}}
	ms, err := boot(cfg)
	defer func() {
		for _, m := range ms {
			m.Terminate(10 * time.Second)
		}
	}()
	if err != nil {
		return res, err
	}
	current := func() []*launch.Member { return ms }
	nc := nsclient.New(remoting.DefaultClientConfig())
	defer nc.Close()
	stop := make(chan struct{})
	loadDone := make(chan struct{})
	go func() {
		defer close(loadDone)
		newLoad(current, nc, cfg.Brokers, cfg.Heartbeat, res.Counts).run(stop)
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	start := time.Now()
	nextSample, nextTransfer, restartAt := time.Duration(0), cfg.TransferEvery, cfg.Duration/5
	for elapsed := time.Since(start); elapsed < cfg.Duration; elapsed = time.Since(start) {
		switch {
		case elapsed >= nextSample:
			res.Samples = append(res.Samples, sampleAll(ms, elapsed, &res.Notes)...)
			nextSample += cfg.SampleEvery
		case res.Restarts == 0 && elapsed >= restartAt:
			if err := restart(ms[len(ms)-1]); err != nil {
				close(stop)
				<-loadDone
				return res, err
			}
			res.Restarts++
		case elapsed >= nextTransfer:
			if err := transferLeader(ms); err != nil {
				res.Notes = append(res.Notes, fmt.Sprintf("leader transfer at %v: %v", elapsed.Round(time.Second), err))
			} else {
				res.Transfers++
			}
			nextTransfer += cfg.TransferEvery
		default:
			<-tick.C
		}
	}
	close(stop)
	<-loadDone
	res.Expired = countExpiries(cfg.Dir)
	res.Verdicts = judgeAll(res.Samples)
	return res, nil
}

// memberArgs keep snapshots and log truncation frequent, so a run of
// minutes goes through many of them. The fake brokers share one client
// connection per member, which a member drops while it is not ready (a
// leader transfer, the restart): unlike real brokers, each with its own
// connections, they would all count as gone with it, so a closed
// connection does not expire them (--conn-close-grace, as in the chaos
// test); their 30 s registrations keep them alive against the 120 s
// expiry instead.
var memberArgs = []string{"--raft-multiplier", "1", "--snapshot-interval", "2s", "--snapshot-threshold", "1024",
	"--trailing-logs", "2048", "--conn-close-grace", "10m", "--log-level", "info"}

// boot starts three members that bootstrap together and waits until all
// are ready.
func boot(cfg Config) ([]*launch.Member, error) {
	var ms []*launch.Member
	var peers []string
	for i := range 3 {
		id := fmt.Sprintf("n%d", i+1)
		m, err := launch.NewMember(cfg.Binary, id, filepath.Join(cfg.Dir, id))
		if err != nil {
			return ms, err
		}
		log, err := os.Create(filepath.Join(cfg.Dir, id+".log"))
		if err != nil {
			return ms, err
		}
		m.Output, m.DieWithParent = log, true
		ms = append(ms, m)
		peers = append(peers, id+"="+m.ClusterAddr)
	}
	for _, m := range ms {
		m.Args = append(append(append([]string{}, memberArgs...), cfg.MemberArgs...), "--peers", strings.Join(peers, ","))
		if err := m.Start(); err != nil {
			return ms, err
		}
	}
	for _, m := range ms {
		if err := m.WaitReady(context.Background(), 60*time.Second); err != nil {
			return ms, err
		}
	}
	return ms, nil
}

// restart stops m in order and starts it again on its data dir.
func restart(m *launch.Member) error {
	if err := m.Terminate(15 * time.Second); err != nil {
		return fmt.Errorf("stop %s: %w", m.ID, err)
	}
	if err := m.Start(); err != nil {
		return err
	}
	return m.WaitReady(context.Background(), 60*time.Second)
}

// transferLeader asks a member to hand leadership to another voter.
func transferLeader(ms []*launch.Member) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	resp, err := ms[0].Do(ctx, http.MethodPost, "/v1/leader/transfer")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return poll.Until(ctx, 15*time.Second, 100*time.Millisecond, "a leader in office", func() (bool, error) {
		for _, m := range ms {
			if st, err := m.Status(ctx); err == nil && st.IsLeader() {
				return true, nil
			}
		}
		return false, nil
	})
}

// sampleAll samples every member; a member that cannot be sampled is
// noted and left out of this round.
func sampleAll(ms []*launch.Member, at time.Duration, notes *[]string) []Sample {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var out []Sample
	for _, m := range ms {
		s, err := sampleMember(ctx, m, at)
		if err != nil {
			*notes = append(*notes, fmt.Sprintf("sample of %s at %v: %v", m.ID, at.Round(time.Second), err))
			continue
		}
		out = append(out, s)
	}
	return out
}

// judgeAll applies the growth rule to every member's every figure.
func judgeAll(samples []Sample) []Verdict {
	series := map[string]map[Metric][]float64{}
	var members []string
	for _, s := range samples {
		if series[s.Member] == nil {
			series[s.Member] = map[Metric][]float64{}
			members = append(members, s.Member)
		}
		for _, m := range Metrics {
			series[s.Member][m] = append(series[s.Member][m], s.Values[m])
		}
	}
	var out []Verdict
	for _, id := range members {
		for _, m := range Metrics {
			out = append(out, Judge(id, m, series[id][m], Tolerances[m]))
		}
	}
	return out
}

// countExpiries counts "broker expired" lines in the members' logs.
func countExpiries(dir string) int {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	n := 0
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err == nil {
			n += strings.Count(string(b), "broker expired")
		}
	}
	return n
}
