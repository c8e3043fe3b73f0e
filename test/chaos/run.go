package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// Config describes one run.
type Config struct {
	// Binary is the raftns executable.
	Binary string
	// Dir holds the members' data and logs; OutDir receives a failing
	// run's history and visualization.
	Dir, OutDir string
	Seed        uint64
	Members     int
	Clients     int
	Duration    time.Duration
	// Faults are the kinds to inject (AllFaults when empty).
	Faults []string
	// DiskSize is the size of the small disk of member n1 (disk-full
	// fault); 0 picks 256 MiB.
	DiskSize int64
	// CheckTimeout bounds porcupine (0: 2 minutes).
	CheckTimeout time.Duration
	// NonVoters are members added as non-voters after the cluster formed
	// (v1, v2, …); the run checks that none of them ever leads.
	NonVoters int
}

// Result is what a run found.
type Result struct {
	Seed        uint64
	Members     int
	Duration    time.Duration
	Operations  int // recorded client operations
	Checked     int // operations given to the checker
	Acked       int // writes acknowledged
	Unknown     int // writes whose outcome the client could not know
	Failed      int // writes certainly not applied
	Faults      map[string]int
	Check       porcupine.CheckResult
	LostAcked   int // keys whose last acknowledged write is not the final value
	LocalReads  int // client-port reads checked for bounded staleness
	StaleReads  int // of those, reads older than the bound
	OwnReads    int // local reads on a member after a write it acknowledged
	OwnMisses   int // of those, reads that did not show the write
	LiveExpired int // live brokers expired (log lines) or missing at the end
	// RouteProbes counts rounds of route queries to every member (upgrade
	// runs), RouteMisses those that no member answered.
	RouteProbes, RouteMisses int
	// StepFailures counts upgrade steps that failed or whose members did
	// not report the expected releases.
	StepFailures int
	// NonVoterStatuses counts the non-voters' status answers taken during
	// the run, NonVoterLed those in which one was leader or candidate.
	NonVoterStatuses, NonVoterLed int
	// Stuck: the cluster did not converge within a minute of healing.
	Stuck bool
	Notes []string
	// Artifacts are the files written for a failing run.
	Artifacts []string
}

// OK reports a run without violations.
func (r *Result) OK() bool {
	return r.Check == porcupine.Ok && r.LostAcked == 0 && r.StaleReads == 0 && r.OwnMisses == 0 && r.LiveExpired == 0 &&
		!r.Stuck && r.RouteMisses == 0 && r.StepFailures == 0 && r.NonVoterLed == 0
}

func (r *Result) String() string {
	return fmt.Sprintf("seed=%d members=%d duration=%v ops=%d checked=%d acked=%d unknown=%d failed=%d faults=%v check=%s lost=%d local_reads=%d stale=%d own_write_reads=%d own_write_misses=%d live_expired=%d route_probes=%d route_misses=%d non_voter_statuses=%d non_voter_led=%d stuck=%v notes=%q",
		r.Seed, r.Members, r.Duration, r.Operations, r.Checked, r.Acked, r.Unknown, r.Failed, r.Faults, r.Check, r.LostAcked,
		r.LocalReads, r.StaleReads, r.OwnReads, r.OwnMisses, r.LiveExpired, r.RouteProbes, r.RouteMisses, r.NonVoterStatuses,
		r.NonVoterLed, r.Stuck, r.Notes)
}

// Run boots a cluster, runs the workload under the nemesis, heals, reads
// the final state through every member and checks the history.
func Run(cfg Config) (*Result, error) {
	if cfg.DiskSize == 0 {
		cfg.DiskSize = 256 << 20
	}
	if len(cfg.Faults) == 0 {
		cfg.Faults = AllFaults
	}
	diskMember := -1
	for _, f := range cfg.Faults {
		if f == FaultDiskFull {
			diskMember = 0
		}
	}
	return runDriven(cfg, diskMember, 2, func(c *procCluster, h *history, stop chan struct{}) (map[string]int, []string) {
		nem := &nemesis{rng: newRand(cfg.Seed, 0), cluster: c, hist: h, kinds: cfg.Faults, stop: stop, counts: map[string]int{}}
		nem.run(cfg.Duration)
		nem.healAll()
		return nem.counts, nem.notes
	})
}

// driver changes the cluster while the workload runs and returns, with
// the cluster whole again, what it did (counts by kind) and notes.
type driver func(c *procCluster, h *history, stop chan struct{}) (map[string]int, []string)

// runDriven boots cfg.Members members (diskMember, or -1, on a small
// disk), runs the clients and liveN live brokers while drive changes the
// cluster, then waits for convergence, reads the final state through every
// member and checks the history.
func runDriven(cfg Config, diskMember, liveN int, drive driver) (*Result, error) {
	if cfg.CheckTimeout == 0 {
		cfg.CheckTimeout = 2 * time.Minute
	}
	res := &Result{Seed: cfg.Seed, Members: cfg.Members, Duration: cfg.Duration}
	c := newProcCluster(cfg.Binary, cfg.Dir)
	defer c.stop()
	if err := c.boot(cfg.Members, diskMember, cfg.DiskSize); err != nil {
		return res, err
	}
	if err := waitConverged(c, 60*time.Second); err != nil {
		return res, fmt.Errorf("cluster did not start: %w", err)
	}
	nonVoters, err := c.addNonVoters(cfg.NonVoters)
	if err != nil {
		return res, fmt.Errorf("adding non-voters: %w", err)
	}
	if err := waitConverged(c, 60*time.Second); err != nil {
		return res, fmt.Errorf("cluster with its non-voters did not converge: %w", err)
	}
	stopWatch := make(chan struct{})
	watch := watchNonVoters(nonVoters, stopWatch)

	h := newHistory()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var version atomic.Int64
	var clients []*client
	for i := range cfg.Clients {
		cl := newClient(i, cfg.Seed, c, h, 10, 6, &version)
		clients = append(clients, cl)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl.run(stop)
		}()
	}
	// The live brokers keep registering until the final reads are done.
	live := &liveBrokers{n: liveN, cluster: c, nc: nsclient.New(remoting.DefaultClientConfig())}
	defer live.nc.Close()
	stopLive, liveDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(liveDone)
		live.run(stopLive)
	}()

	res.Faults, res.Notes = drive(c, h, stop)
	close(stop)
	wg.Wait()

	if err := waitConverged(c, 60*time.Second); err != nil {
		res.Stuck = true
		res.Notes = append(res.Notes, "no convergence after healing: "+err.Error()+"; goroutine dumps in the member logs")
		c.dumpGoroutines()
	}
	close(stopWatch)
	<-watch.done
	res.NonVoterStatuses, res.NonVoterLed = int(watch.seen.Load()), int(watch.led.Load())
	finalReads(clients[0], c, h)
	for _, cl := range clients {
		cl.close()
	}
	for i := range live.n {
		if out, err := clients[0].consistentRoute(context.Background(), c.current()[0], liveName(i)); err != nil || !out.Found {
			res.LiveExpired++
			res.Notes = append(res.Notes, fmt.Sprintf("live broker %s not registered at the end (%v)", liveName(i), err))
		}
	}
	close(stopLive)
	<-liveDone
	res.LiveExpired += countLiveExpiries(c)
	check(cfg, h, res)
	return res, nil
}

// waitConverged waits for a leader in office and every member ready with
// the leader's applied index.
func waitConverged(c *procCluster, timeout time.Duration) error {
	return poll.Until(context.Background(), timeout, 100*time.Millisecond, "a converged cluster", func() (bool, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var leaderApplied uint64
		applied := map[string]uint64{}
		for _, m := range c.current() {
			st, err := m.Status(ctx)
			if err != nil || !st.Ready || st.Admission != "" {
				// A member that lost its disk must be re-admitted by itself.
				return false, nil
			}
			if st.IsLeader() {
				leaderApplied = st.AppliedIndex
			}
			applied[m.ID] = st.AppliedIndex
		}
		if leaderApplied == 0 {
			return false, nil
		}
		for _, a := range applied {
			if a < leaderApplied {
				return false, nil
			}
		}
		return true, nil
	})
}

// finalReads reads every key through every member, leader-checked and
// local, after the cluster converged: an acknowledged write that was lost
// shows up here as a violation.
func finalReads(cl *client, c *procCluster, h *history) {
	for _, m := range c.current() {
		for k := range cl.keys {
			for _, consistent := range []bool{true, false} {
				cl.once(input{Kind: opReadKV, Key: fmt.Sprintf("k%d", k), Member: m.ID, Consistent: consistent})
			}
		}
		for b := range cl.brokers {
			for _, consistent := range []bool{true, false} {
				cl.once(input{Kind: opReadRoute, Key: fmt.Sprintf("cb%d", b), Member: m.ID, Consistent: consistent})
			}
		}
	}
}

// countLiveExpiries counts expiries of the live brokers in the members'
// logs.
func countLiveExpiries(c *procCluster) int {
	n := 0
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.members {
		b, err := os.ReadFile(filepath.Join(c.dir, id+".log"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "broker expired") && strings.Contains(line, liveCluster) {
				n++
			}
		}
	}
	return n
}

// check runs porcupine and the lost-write count; a failing run's history
// and visualization go to OutDir.
func check(cfg Config, h *history, res *Result) {
	for _, e := range h.events {
		res.Operations++
		if !isWrite(e.In.Kind) {
			continue
		}
		switch {
		case e.Failed:
			res.Failed++
		case e.Out.Unknown:
			res.Unknown++
		default:
			res.Acked++
		}
	}
	ops := h.operations()
	res.Checked = len(ops)
	var examples []string
	res.StaleReads, res.LocalReads, examples = staleReads(h, staleBound)
	res.Notes = append(res.Notes, examples...)
	res.OwnMisses, res.OwnReads, examples = ownWriteMisses(h)
	res.Notes = append(res.Notes, examples...)
	result, info := porcupine.CheckOperationsVerbose(model, ops, cfg.CheckTimeout)
	res.Check = result
	res.LostAcked = lostAcked(h)
	if res.OK() || cfg.OutDir == "" {
		return
	}
	os.MkdirAll(cfg.OutDir, 0o755)
	base := filepath.Join(cfg.OutDir, fmt.Sprintf("chaos-seed%d-%dm", cfg.Seed, cfg.Members))
	meta := map[string]any{"seed": cfg.Seed, "members": cfg.Members, "clients": cfg.Clients, "duration": cfg.Duration.String(), "faults": cfg.Faults, "result": res.String()}
	if err := h.save(base+".json", meta); err == nil {
		res.Artifacts = append(res.Artifacts, base+".json")
	}
	info.AddAnnotations(h.annotations())
	if err := porcupine.VisualizePath(model, info, base+".html"); err == nil {
		res.Artifacts = append(res.Artifacts, base+".html")
	}
}

// newRand returns the seeded generator of stream.
func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// lostAcked counts keys whose final value (the last leader-checked read)
// is not the effect of the last acknowledged write, among the keys where
// that write is unambiguous: it overlaps no other write and no write on the
// key has an unknown outcome (which could land at any later time).
// Porcupine's check covers this and more; the count names the failure.
func lostAcked(h *history) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	type keyed struct {
		last      *event
		ambiguous bool
		final     *event
	}
	keys := map[string]*keyed{}
	for i := range h.events {
		e := &h.events[i]
		k := keys[e.In.Key]
		if k == nil {
			k = &keyed{}
			keys[e.In.Key] = k
		}
		switch {
		case !isWrite(e.In.Kind):
			if e.In.Consistent && !e.Out.Unknown && !e.Failed && (k.final == nil || e.Call > k.final.Call) {
				k.final = e
			}
		case e.Failed:
		case e.Out.Unknown:
			k.ambiguous = true
		case k.last == nil || e.Call > k.last.Call:
			k.last = e
		}
	}
	lost := 0
	for _, k := range keys {
		if k.ambiguous || k.last == nil || k.final == nil {
			continue
		}
		overlapped := false
		for i := range h.events {
			e := &h.events[i]
			if e != k.last && e.In.Key == k.last.In.Key && isWrite(e.In.Kind) && !e.Failed && e.Return > k.last.Call {
				overlapped = true
			}
		}
		want, ok := effect(k.last.In)
		if overlapped || !ok {
			continue
		}
		got := k.final.Out
		if got.Found != want.Present || (want.Present && (got.Value != want.Value || (k.last.In.Kind == opRegister && !got.Writable))) {
			lost++
		}
	}
	return lost
}

// effect is the state a write leaves regardless of the state before it;
// false for writes whose effect depends on it (write permissions).
func effect(in input) (cell, bool) {
	switch in.Kind {
	case opPut:
		return cell{Present: true, Value: in.Value}, true
	case opDelete, opUnregister:
		return cell{}, true
	case opRegister:
		return cell{Present: true, Writable: true}, true
	}
	return cell{}, false
}
