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
	Rounds  int           `json:"rounds"`
	Outage  time.Duration `json:"outage"`
	Writers int           `json:"writers"`
}

func newRejoinScenario() *rejoinScenario { return &rejoinScenario{} }

func (s *rejoinScenario) bind(fs *flag.FlagSet) {
	fs.IntVar(&s.Rounds, "rounds", 5, "follower restarts")
	fs.DurationVar(&s.Outage, "outage", 45*time.Second, "how long the follower stays down")
	fs.IntVar(&s.Writers, "writers", 4, "concurrent registering brokers through the leader (new DataVersion each time)")
}

func (s *rejoinScenario) check(c *commonOptions, set map[string]bool) error {
	if err := c.requireStarts("rejoin"); err != nil {
		return err
	}
	switch {
	case s.Rounds < 1 || s.Writers < 1 || s.Outage <= 0:
		return fmt.Errorf("%w: -rounds and -writers must be at least 1 and -outage positive", errUsage)
	}
	return c.needThreeMembers(set, "rejoin")
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
	fo := &failoverScenario{Writers: s.Writers, WriteTimeout: 2 * time.Second}
	w := fo.startWriters(ctx, e, newNaming(), leader.ClientAddr, 0)
	defer w.stop()
	if err := w.waitSuccesses(ctx, time.Second); err != nil {
		return err
	}
	var res rejoinResults
	var first, ready []time.Duration
	for round := 1; round <= s.Rounds; round++ {
		rr, err := s.round(ctx, e, round)
		if err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
		res.Rounds = append(res.Rounds, rr)
		first = append(first, msDur(rr.FirstEntryMs))
		ready = append(ready, msDur(rr.ReadyMs))
	}
	res.FirstEntry, res.Ready = spread(first), spread(ready)
	r.Results = res
	t := Table{Title: fmt.Sprintf("follower down for %v, then restarted (ms from the restart)", s.Outage),
		Columns: []string{"round", "stopped", "leader", "entries missed", "first new entry", "ready"}}
	for _, rr := range res.Rounds {
		t.add(rr.Round, rr.Stopped, rr.Leader, rr.Entries, rr.FirstEntryMs, rr.ReadyMs)
	}
	sum := Table{Title: fmt.Sprintf("summary over %d rounds (ms)", len(res.Rounds)), Columns: []string{"measure", "min", "median", "max"}}
	sum.add("first new log entry", res.FirstEntry.MinMs, res.FirstEntry.MedianMs, res.FirstEntry.MaxMs)
	sum.add("ready (/readyz 200)", res.Ready.MinMs, res.Ready.MedianMs, res.Ready.MaxMs)
	r.Tables = append(r.Tables, t, sum)
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
