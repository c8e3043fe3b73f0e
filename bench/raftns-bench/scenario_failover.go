package main

import (
	"context"
	"flag"
	"fmt"
	"time"
)

// failoverScenario starts its own members, keeps registering through a
// follower, SIGKILLs the leader and measures how long the cluster takes to
// accept a write and to be ready again; then it restarts the killed member
// and measures its rejoin. Each round kills the current leader.
type failoverScenario struct {
	roundFlags
	Settle time.Duration `json:"settle"`
}

func (s *failoverScenario) bind(fs *flag.FlagSet) {
	s.roundFlags.bind(fs, 3, "leader kills", "concurrent registering brokers (new DataVersion each time)")
	fs.DurationVar(&s.Settle, "settle", 2*time.Second, "steady writing before each kill")
	s.bindWriteTimeout(fs, 2*time.Second, "timeout of one registration")
}

func (s *failoverScenario) check(*commonOptions, map[string]bool) error {
	if s.Settle < 0 {
		return fmt.Errorf("%w: -settle must not be negative", errUsage)
	}
	return s.roundFlags.check()
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
	rounds, err := eachRound(s.Rounds, func(round int) (failoverRound, error) { return s.round(ctx, e, n, round) })
	if err != nil {
		return err
	}
	res := failoverResults{Rounds: rounds,
		FirstWrite: spreadOf(rounds, func(fr failoverRound) float64 { return fr.FirstWriteMs }),
		Leader:     spreadOf(rounds, func(fr failoverRound) float64 { return fr.LeaderMs }),
		Ready:      spreadOf(rounds, func(fr failoverRound) float64 { return fr.ReadyMs }),
		Rejoin:     spreadOf(rounds, func(fr failoverRound) float64 { return fr.RejoinMs }),
	}
	r.show(res, s.tables(res)...)
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
	w := startWriters(ctx, e, n, via.ClientAddr, fmt.Sprintf("fo%d", round), s.Writers, s.WriteTimeout)
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

func (s *failoverScenario) tables(res failoverResults) []Table {
	rounds := Table{Title: "leader kill rounds (ms from SIGKILL)",
		Columns: []string{"round", "killed", "writes via", "new leader", "first write", "leader", "survivors ready", "rejoin", "failed writes"}}
	for _, fr := range res.Rounds {
		rounds.add(fr.Round, fr.Killed, fr.Via, fr.NewLeader, fr.FirstWriteMs, fr.LeaderMs, fr.ReadyMs, fr.RejoinMs, fr.FailedAfter)
	}
	sum := spreadTable(len(res.Rounds), measureSpread{"first successful write", res.FirstWrite}, measureSpread{"new leader in office", res.Leader},
		measureSpread{"survivors ready", res.Ready}, measureSpread{"killed member rejoined (from restart)", res.Rejoin})
	return []Table{rounds, sum}
}
