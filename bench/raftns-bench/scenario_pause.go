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
	roundFlags
	Pause time.Duration `json:"pause"`
}

func (s *pauseScenario) bind(fs *flag.FlagSet) {
	s.roundFlags.bind(fs, 3, "leader pauses", "concurrent registering brokers through a follower")
	fs.DurationVar(&s.Pause, "pause", 6*time.Second, "how long the leader stays stopped")
	s.bindWriteTimeout(fs, 10*time.Second, "client timeout of one registration")
}

func (s *pauseScenario) check(*commonOptions, map[string]bool) error {
	if s.Pause <= 0 {
		return fmt.Errorf("%w: -pause must be positive", errUsage)
	}
	return s.roundFlags.check()
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
	rounds, err := eachRound(s.Rounds, func(round int) (pauseRound, error) { return s.round(ctx, e, n, round) })
	if err != nil {
		return err
	}
	res := pauseResults{Rounds: rounds, Late: spreadOf(rounds, func(pr pauseRound) float64 { return pr.LateMs })}
	t := Table{Title: fmt.Sprintf("leader SIGSTOPped for %v (ms)", s.Pause),
		Columns: []string{"round", "paused", "writes via", "new leader", "leader in office", "writes waiting", "last answered after new leader", "failed"}}
	for _, pr := range res.Rounds {
		t.add(pr.Round, pr.Paused, pr.Via, pr.NewLeader, pr.LeaderMs, pr.Waiting, pr.LateMs, pr.Failed)
	}
	r.show(res, t)
	for _, pr := range res.Rounds {
		if pr.FirstError != "" {
			r.notef("round %d: first failed registration %s", pr.Round, pr.FirstError)
		}
	}
	r.notef("writes waiting = registrations sent before the new leader took office and answered after; the last column is the latest of those answers")
	return nil
}

// round stops the current leader once, lets the writes through a follower
// wait for the new leader, and measures how late they were answered.
func (s *pauseScenario) round(ctx context.Context, e *env, n naming, round int) (pauseRound, error) {
	leader, via, err := e.readyLeaderAndFollower(ctx)
	if err != nil {
		return pauseRound{}, err
	}
	pr := pauseRound{Round: round, Paused: leader.ID, Via: via.ID}
	w := startWriters(ctx, e, n, via.ClientAddr, fmt.Sprintf("fo%d", 100+round), s.Writers, s.WriteTimeout)
	if err := w.waitSuccesses(ctx, time.Second); err != nil {
		w.stop()
		return pr, err
	}
	e.logf("pause round %d: stopping leader %s for %v, writing through %s", round, leader.ID, s.Pause, via.ID)
	stopAt := time.Now()
	w.markKill(stopAt)
	if err := syscall.Kill(leader.pid(), syscall.SIGSTOP); err != nil {
		w.stop()
		return pr, err
	}
	resume := time.AfterFunc(s.Pause, func() { syscall.Kill(leader.pid(), syscall.SIGCONT) })
	tLeader, _, newLeader, err := e.watchRecovery(ctx, leader)
	if err != nil {
		resume.Stop()
		syscall.Kill(leader.pid(), syscall.SIGCONT)
		w.stop()
		return pr, err
	}
	// Let every write that was waiting finish or time out.
	time.Sleep(s.WriteTimeout)
	w.stop()
	pr.NewLeader, pr.LeaderMs = newLeader, ms(tLeader.Sub(stopAt))
	pr.count(w.finished(), stopAt, tLeader)
	return pr, leader.WaitReady(ctx, readyTimeout)
}

// count sorts the registrations sent around the stop: failed ones, and
// those sent before the new leader took office at tLeader but answered
// after it.
func (pr *pauseRound) count(done []completion, stopAt, tLeader time.Time) {
	for _, c := range done {
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
}
