package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"syscall"
	"time"
)

// pauseScenario SIGSTOPs the leader (its connections stay open, as with a
// stalled process or a long GC pause), keeps registering through a
// follower, and measures how long after a new leader took office the
// writes that were waiting, or sent meanwhile, were answered. The old
// leader is resumed (SIGCONT) after -pause.
type pauseScenario struct {
	Rounds       int           `json:"rounds"`
	Writers      int           `json:"writers"`
	Pause        time.Duration `json:"pause"`
	WriteTimeout time.Duration `json:"writeTimeout"`
}

func newPauseScenario() *pauseScenario { return &pauseScenario{} }

func (s *pauseScenario) bind(fs *flag.FlagSet) {
	fs.IntVar(&s.Rounds, "rounds", 3, "leader pauses")
	fs.IntVar(&s.Writers, "writers", 4, "concurrent registering brokers through a follower")
	fs.DurationVar(&s.Pause, "pause", 6*time.Second, "how long the leader stays stopped")
	fs.DurationVar(&s.WriteTimeout, "write-timeout", 10*time.Second, "client timeout of one registration")
}

func (s *pauseScenario) check(c *commonOptions, set map[string]bool) error {
	if err := c.requireStarts("pause"); err != nil {
		return err
	}
	switch {
	case s.Rounds < 1 || s.Writers < 1 || s.Pause <= 0 || s.WriteTimeout <= 0:
		return fmt.Errorf("%w: -rounds and -writers must be at least 1, -pause and -write-timeout positive", errUsage)
	}
	return c.needThreeMembers(set, "pause")
}

// pauseRound is one leader pause.
type pauseRound struct {
	Round     int    `json:"round"`
	Paused    string `json:"paused"`
	Via       string `json:"via"`
	NewLeader string `json:"newLeader"`
	// LeaderMs: SIGSTOP → a survivor reports itself leader in office.
	LeaderMs float64 `json:"leaderMs"`
	// Waiting counts the registrations sent before the new leader took
	// office that completed after it; LateMs is the latest of their
	// completions after it took office.
	Waiting int     `json:"waiting"`
	LateMs  float64 `json:"lateMs"`
	Failed  int     `json:"failed"`
	// FirstError is the first failed registration's error.
	FirstError string `json:"firstError,omitempty"`
}

type pauseResults struct {
	Rounds []pauseRound `json:"rounds"`
	Late   Spread       `json:"late"`
}

func (s *pauseScenario) run(ctx context.Context, e *env, r *Report) error {
	n := newNaming()
	fo := &failoverScenario{Writers: s.Writers, WriteTimeout: s.WriteTimeout}
	var res pauseResults
	var late []time.Duration
	for round := 1; round <= s.Rounds; round++ {
		leader, via, err := e.readyLeaderAndFollower(ctx)
		if err != nil {
			return err
		}
		pr := pauseRound{Round: round, Paused: leader.ID, Via: via.ID}
		w := fo.startWriters(ctx, e, n, via.ClientAddr, 100+round)
		if err := w.waitSuccesses(ctx, time.Second); err != nil {
			w.stop()
			return err
		}
		e.logf("pause round %d: stopping leader %s for %v, writing through %s", round, leader.ID, s.Pause, via.ID)
		stopAt := time.Now()
		w.markKill(stopAt)
		if err := syscall.Kill(leader.pid(), syscall.SIGSTOP); err != nil {
			w.stop()
			return err
		}
		resume := time.AfterFunc(s.Pause, func() { syscall.Kill(leader.pid(), syscall.SIGCONT) })
		tLeader, _, newLeader, err := e.watchRecovery(ctx, leader)
		if err != nil {
			resume.Stop()
			syscall.Kill(leader.pid(), syscall.SIGCONT)
			w.stop()
			return err
		}
		// Let every write that was waiting finish or time out.
		time.Sleep(s.WriteTimeout)
		w.stop()
		pr.NewLeader, pr.LeaderMs = newLeader, ms(tLeader.Sub(stopAt))
		w.mu.Lock()
		for _, c := range w.afterKill {
			if errors.Is(c.err, context.Canceled) {
				continue // stopped by the scenario at the end of the round
			}
			if c.err != nil {
				pr.Failed++
				if pr.FirstError == "" {
					pr.FirstError = fmt.Sprintf("sent %v after the stop: %v", c.sent.Sub(stopAt).Round(time.Millisecond), c.err)
				}
				continue
			}
			if c.sent.Before(tLeader) && c.done.After(tLeader) {
				pr.Waiting++
				pr.LateMs = max(pr.LateMs, ms(c.done.Sub(tLeader)))
			}
		}
		w.mu.Unlock()
		late = append(late, msDur(pr.LateMs))
		res.Rounds = append(res.Rounds, pr)
		if err := leader.WaitReady(ctx, readyTimeout); err != nil {
			return err
		}
	}
	res.Late = spread(late)
	r.Results = res
	t := Table{Title: fmt.Sprintf("leader SIGSTOPped for %v (ms)", s.Pause),
		Columns: []string{"round", "paused", "writes via", "new leader", "leader in office", "writes waiting", "last answered after new leader", "failed"}}
	for _, pr := range res.Rounds {
		t.add(pr.Round, pr.Paused, pr.Via, pr.NewLeader, pr.LeaderMs, pr.Waiting, pr.LateMs, pr.Failed)
	}
	r.Tables = append(r.Tables, t)
	for _, pr := range res.Rounds {
		if pr.FirstError != "" {
			r.notef("round %d: first failed registration %s", pr.Round, pr.FirstError)
		}
	}
	r.notef("writes waiting = registrations sent before the new leader took office and answered after; the last column is the latest of those answers")
	return nil
}
