package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/raftns/raftns/internal/launch"
)

// rejoinScenario measures how soon a follower that was down for a while is
// serving again: three members, brokers registering through the leader
// all along, a follower SIGKILLed for -outage and restarted on its data
// directory; then the time from the restart to its first new log entry and
// to its /readyz answering 200 (which needs it to have applied what the
// leader had committed).
type rejoinScenario struct {
	roundFlags
	Outage time.Duration `json:"outage"`
}

func (s *rejoinScenario) bind(fs *flag.FlagSet) {
	s.roundFlags.bind(fs, 5, "follower restarts", "concurrent registering brokers through the leader (new DataVersion each time)")
	fs.DurationVar(&s.Outage, "outage", 45*time.Second, "how long the follower stays down")
	s.WriteTimeout = 2 * time.Second // not a flag of this scenario
}

func (s *rejoinScenario) check(*commonOptions, map[string]bool) error {
	if s.Outage <= 0 {
		return fmt.Errorf("%w: -outage must be positive", errUsage)
	}
	return s.roundFlags.check()
}

// rejoinRound is one follower outage.
type rejoinRound struct {
	Round   int    `json:"round"`
	Stopped string `json:"stopped"`
	Leader  string `json:"leader"`
	Entries uint64 `json:"entriesMissed"`
	// FirstEntryMs: restart → the member's last log index passes what it
	// had before the outage.
	FirstEntryMs float64 `json:"firstEntryMs"`
	// ReadyMs: restart → /readyz 200.
	ReadyMs float64 `json:"readyMs"`
}

type rejoinResults struct {
	Rounds     []rejoinRound `json:"rounds"`
	FirstEntry Spread        `json:"firstEntry"`
	Ready      Spread        `json:"ready"`
}

func (s *rejoinScenario) run(ctx context.Context, e *env, r *Report) error {
	leader, err := e.leader(ctx)
	if err != nil {
		return err
	}
	w := startWriters(ctx, e, newNaming(), leader.ClientAddr, "fo0", s.Writers, s.WriteTimeout)
	defer w.stop()
	if err := w.waitSuccesses(ctx, time.Second); err != nil {
		return err
	}
	rounds, err := eachRound(s.Rounds, func(round int) (rejoinRound, error) { return s.round(ctx, e, round) })
	if err != nil {
		return err
	}
	res := rejoinResults{Rounds: rounds,
		FirstEntry: spreadOf(rounds, func(rr rejoinRound) float64 { return rr.FirstEntryMs }),
		Ready:      spreadOf(rounds, func(rr rejoinRound) float64 { return rr.ReadyMs }),
	}
	t := Table{Title: fmt.Sprintf("follower down for %v, then restarted (ms from the restart)", s.Outage),
		Columns: []string{"round", "stopped", "leader", "entries missed", "first new entry", "ready"}}
	for _, rr := range res.Rounds {
		t.add(rr.Round, rr.Stopped, rr.Leader, rr.Entries, rr.FirstEntryMs, rr.ReadyMs)
	}
	r.show(res, t, spreadTable(len(rounds), measureSpread{"first new log entry", res.FirstEntry}, measureSpread{"ready (/readyz 200)", res.Ready}))
	r.notef("ready needs the member to have applied what the leader had committed when it asked")
	return nil
}

func (s *rejoinScenario) round(ctx context.Context, e *env, round int) (rejoinRound, error) {
	rr := rejoinRound{Round: round}
	leader, victim, err := e.readyLeaderAndFollower(ctx)
	if err != nil {
		return rr, err
	}
	rr.Stopped, rr.Leader = victim.ID, leader.ID
	st, err := victim.Status(ctx)
	if err != nil {
		return rr, err
	}
	before := st.LastIndex
	e.logf("rejoin round %d: stopping %s for %v (leader %s)", round, victim.ID, s.Outage, leader.ID)
	victim.Kill()
	select {
	case <-ctx.Done():
		return rr, ctx.Err()
	case <-time.After(s.Outage):
	}
	if lst, err := leader.Status(ctx); err == nil && lst.LastIndex > before {
		rr.Entries = lst.LastIndex - before
	}
	restart := time.Now()
	if err := victim.Start(); err != nil {
		return rr, err
	}
	var firstAt, readyAt time.Time
	lastReason := ""
	err = launch.Poll(ctx, readyTimeout, 10*time.Millisecond, "member "+victim.ID+" to rejoin", func() (bool, error) {
		st, err := victim.Status(ctx)
		if err != nil {
			return false, nil
		}
		now := time.Now()
		if st.ReadyReason != lastReason {
			lastReason = st.ReadyReason
			e.logf("  %6.0f ms: %s not ready: %q (last index %d)", ms(now.Sub(restart)), victim.ID, st.ReadyReason, st.LastIndex)
		}
		if firstAt.IsZero() && st.LastIndex > before {
			firstAt = now
		}
		if readyAt.IsZero() && st.Ready {
			readyAt = now
		}
		return !firstAt.IsZero() && !readyAt.IsZero(), nil
	})
	if err != nil {
		return rr, err
	}
	rr.FirstEntryMs, rr.ReadyMs = ms(firstAt.Sub(restart)), ms(readyAt.Sub(restart))
	return rr, nil
}
