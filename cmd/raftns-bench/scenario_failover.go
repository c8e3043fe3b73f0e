package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// failoverScenario starts its own members, keeps registering through a
// follower, SIGKILLs the leader and measures how long the cluster takes to
// accept a write and to be ready again; then it restarts the killed member
// and measures its rejoin. Each round kills the current leader.
type failoverScenario struct {
	Rounds       int           `json:"rounds"`
	Writers      int           `json:"writers"`
	Settle       time.Duration `json:"settle"`
	WriteTimeout time.Duration `json:"writeTimeout"`
}

func newFailoverScenario() *failoverScenario { return &failoverScenario{} }

func (s *failoverScenario) bind(fs *flag.FlagSet) {
	fs.IntVar(&s.Rounds, "rounds", 3, "leader kills")
	fs.IntVar(&s.Writers, "writers", 4, "concurrent registering brokers (new DataVersion each time)")
	fs.DurationVar(&s.Settle, "settle", 2*time.Second, "steady writing before each kill")
	fs.DurationVar(&s.WriteTimeout, "write-timeout", 2*time.Second, "timeout of one registration")
}

func (s *failoverScenario) check(c *commonOptions, set map[string]bool) error {
	if err := c.requireStarts("failover"); err != nil {
		return err
	}
	switch {
	case s.Rounds < 1 || s.Writers < 1:
		return fmt.Errorf("%w: -rounds and -writers must be at least 1", errUsage)
	case s.Settle < 0 || s.WriteTimeout <= 0:
		return fmt.Errorf("%w: -settle must not be negative and -write-timeout must be positive", errUsage)
	}
	return c.needThreeMembers(set, "failover")
}

// failoverRound is one leader kill.
type failoverRound struct {
	Round     int    `json:"round"`
	Killed    string `json:"killed"`
	Via       string `json:"via"`
	NewLeader string `json:"newLeader"`
	// FirstWriteMs: kill → completion of the first successful registration
	// sent after the kill.
	FirstWriteMs float64 `json:"firstWriteMs"`
	// LeaderMs: kill → a survivor reports itself leader in office.
	LeaderMs float64 `json:"leaderMs"`
	// ReadyMs: kill → every survivor ready.
	ReadyMs float64 `json:"readyMs"`
	// RejoinMs: restart of the killed member → it is ready.
	RejoinMs     float64 `json:"rejoinMs"`
	WritesBefore int     `json:"writesBeforeKill"`
	FailedAfter  int     `json:"failedWritesAfterKill"`
}

type failoverResults struct {
	Rounds     []failoverRound `json:"rounds"`
	FirstWrite Spread          `json:"firstWrite"`
	Leader     Spread          `json:"leader"`
	Ready      Spread          `json:"ready"`
	Rejoin     Spread          `json:"rejoin"`
}

func (s *failoverScenario) run(ctx context.Context, e *env, r *Report) error {
	n := newNaming()
	var res failoverResults
	var firstWrite, leader, ready, rejoin []time.Duration
	for round := 1; round <= s.Rounds; round++ {
		fr, err := s.round(ctx, e, n, round)
		if err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
		res.Rounds = append(res.Rounds, fr)
		firstWrite = append(firstWrite, msDur(fr.FirstWriteMs))
		leader = append(leader, msDur(fr.LeaderMs))
		ready = append(ready, msDur(fr.ReadyMs))
		rejoin = append(rejoin, msDur(fr.RejoinMs))
	}
	res.FirstWrite, res.Leader, res.Ready, res.Rejoin = spread(firstWrite), spread(leader), spread(ready), spread(rejoin)
	r.Results = res
	r.Tables = append(r.Tables, s.tables(res)...)
	r.notef("first write = kill -> completion of the first successful registration sent after the kill, through a member that was a follower")
	r.notef("rejoin = restart of the killed member (same data dir) -> its /readyz answers 200")
	return nil
}

// round kills the current leader once and measures the recovery.
func (s *failoverScenario) round(ctx context.Context, e *env, n naming, round int) (failoverRound, error) {
	fr := failoverRound{Round: round}
	leader, via, err := e.readyLeaderAndFollower(ctx)
	if err != nil {
		return fr, err
	}
	fr.Killed, fr.Via = leader.ID, via.ID
	w := s.startWriters(ctx, e, n, via.ClientAddr, round)
	defer w.stop()
	if err := w.waitSuccesses(ctx, s.Settle); err != nil {
		return fr, err
	}
	fr.WritesBefore = w.successes()
	e.logf("failover round %d: killing leader %s, writing through %s", round, leader.ID, via.ID)
	killAt := time.Now()
	w.markKill(killAt)
	leader.Kill()
	tLeader, tReady, newLeader, err := e.watchRecovery(ctx, leader)
	if err != nil {
		return fr, err
	}
	first, err := w.waitFirstAfterKill(ctx, readyTimeout)
	if err != nil {
		return fr, err
	}
	fr.NewLeader = newLeader
	fr.FirstWriteMs, fr.LeaderMs, fr.ReadyMs = ms(first.Sub(killAt)), ms(tLeader.Sub(killAt)), ms(tReady.Sub(killAt))
	fr.FailedAfter = w.failuresAfterKill()
	restart := time.Now()
	if err := leader.Start(); err != nil {
		return fr, err
	}
	if err := leader.WaitReady(ctx, readyTimeout); err != nil {
		return fr, err
	}
	fr.RejoinMs = ms(time.Since(restart))
	return fr, nil
}

// allReady waits until every live member is ready.
func (e *env) allReady(ctx context.Context) error {
	for _, m := range e.members {
		if err := m.WaitReady(ctx, readyTimeout); err != nil {
			return err
		}
	}
	return nil
}

// readyLeaderAndFollower waits until every live member is ready, then
// returns the leader and a follower.
func (e *env) readyLeaderAndFollower(ctx context.Context) (leader, follower *member, err error) {
	if err := e.allReady(ctx); err != nil {
		return nil, nil, err
	}
	if leader, err = e.leader(ctx); err != nil {
		return nil, nil, err
	}
	if follower, err = e.pick(ctx, "follower"); err != nil {
		return nil, nil, err
	}
	return leader, follower, nil
}

// watchRecovery polls the members other than killed until one is leader in
// office and all are ready; it returns when each was first seen.
func (e *env) watchRecovery(ctx context.Context, killed *member) (leaderAt, readyAt time.Time, leaderID string, err error) {
	err = launch.Poll(ctx, readyTimeout, 10*time.Millisecond, "a new leader and ready survivors", func() (bool, error) {
		allReady := true
		for _, m := range e.members {
			if m == killed {
				continue
			}
			st, err := m.Status(ctx)
			if err != nil || !st.Ready {
				allReady = false
			}
			if err == nil && st.IsLeader() && leaderAt.IsZero() {
				leaderAt, leaderID = time.Now(), m.ID
			}
		}
		if allReady && !leaderAt.IsZero() && readyAt.IsZero() {
			readyAt = time.Now()
		}
		return !readyAt.IsZero(), nil
	})
	return leaderAt, readyAt, leaderID, err
}

// writers register brokers in closed loops and record, once a kill time is
// marked, the first success of a request sent after it.
type writers struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex
	killAt     time.Time
	ok         int
	failedPost int
	firstAfter time.Time
	lastErr    error
	progress   chan struct{}
	// afterKill lists every registration sent up to a second before the
	// kill mark or later, as it completed.
	afterKill []completion
}

// completion is one finished registration.
type completion struct {
	sent, done time.Time
	err        error
}

func (s *failoverScenario) startWriters(ctx context.Context, e *env, n naming, addr string, round int) *writers {
	ctx, cancel := context.WithCancel(ctx)
	w := &writers{cancel: cancel, progress: make(chan struct{}, 1)}
	for i := range s.Writers {
		reg := n.broker(fmt.Sprintf("fo%d", round), i, topicConfigs(n.topics(fmt.Sprintf("fo%d-%d", round, i), 4), 4))
		c := e.newClient()
		w.wg.Go(func() {
			defer c.Close()
			for ctx.Err() == nil {
				bump(reg)
				sent := time.Now()
				rctx, rcancel := context.WithTimeout(ctx, s.WriteTimeout)
				_, err := c.RegisterBroker(rctx, addr, reg)
				rcancel()
				w.record(sent, time.Now(), err)
				if err != nil && ctx.Err() == nil {
					time.Sleep(10 * time.Millisecond) // do not spin on a refused connection
				}
			}
		})
	}
	return w
}

func (w *writers) record(sent, done time.Time, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	after := !w.killAt.IsZero() && !sent.Before(w.killAt)
	if !w.killAt.IsZero() && sent.After(w.killAt.Add(-time.Second)) {
		w.afterKill = append(w.afterKill, completion{sent, done, err})
	}
	switch {
	case err != nil && after:
		w.failedPost++
		w.lastErr = err
	case err != nil:
		w.lastErr = err
	default:
		w.ok++
		if after && (w.firstAfter.IsZero() || done.Before(w.firstAfter)) {
			w.firstAfter = done
		}
	}
	select {
	case w.progress <- struct{}{}:
	default:
	}
}

func (w *writers) markKill(at time.Time) {
	w.mu.Lock()
	w.killAt = at
	w.mu.Unlock()
}

func (w *writers) successes() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ok
}

func (w *writers) failuresAfterKill() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failedPost
}

// waitSuccesses lets the writers run for settle and fails when none of
// their registrations succeeded by then.
func (w *writers) waitSuccesses(ctx context.Context, settle time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(settle):
	}
	return launch.Poll(ctx, readyTimeout, 10*time.Millisecond, "a first successful registration", func() (bool, error) { return w.successes() > 0, nil })
}

// waitFirstAfterKill waits for a success sent after the kill.
func (w *writers) waitFirstAfterKill(ctx context.Context, timeout time.Duration) (time.Time, error) {
	var first time.Time
	err := launch.Poll(ctx, timeout, 5*time.Millisecond, "a successful registration after the kill", func() (bool, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		first = w.firstAfter
		return !first.IsZero(), nil
	})
	if errors.Is(err, launch.ErrTimeout) {
		w.mu.Lock()
		err = fmt.Errorf("%w (last error: %v)", err, w.lastErr)
		w.mu.Unlock()
	}
	return first, err
}

func (w *writers) stop() {
	w.cancel()
	w.wg.Wait()
}

func (s *failoverScenario) tables(res failoverResults) []Table {
	rounds := Table{Title: "leader kill rounds (ms from SIGKILL)",
		Columns: []string{"round", "killed", "writes via", "new leader", "first write", "leader", "survivors ready", "rejoin", "failed writes"}}
	for _, fr := range res.Rounds {
		rounds.add(fr.Round, fr.Killed, fr.Via, fr.NewLeader, fr.FirstWriteMs, fr.LeaderMs, fr.ReadyMs, fr.RejoinMs, fr.FailedAfter)
	}
	sum := Table{Title: fmt.Sprintf("summary over %d rounds (ms)", len(res.Rounds)), Columns: []string{"measure", "min", "median", "max"}}
	for _, row := range []struct {
		name string
		s    Spread
	}{{"first successful write", res.FirstWrite}, {"new leader in office", res.Leader}, {"survivors ready", res.Ready}, {"killed member rejoined (from restart)", res.Rejoin}} {
		sum.add(row.name, row.s.MinMs, row.s.MedianMs, row.s.MaxMs)
	}
	return []Table{rounds, sum}
}

// msDur converts fractional milliseconds back to a duration.
func msDur(v float64) time.Duration { return time.Duration(math.Round(v * float64(time.Millisecond))) }
