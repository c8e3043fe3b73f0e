package main

import (
	"context"
	"fmt"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/protocol/remoting"
)

// storm makes the fleet's next heartbeat round a restart storm with the
// registrations next, reads routes for the whole round and waits for every
// broker to be back.
func (s *scaleScenario) storm(ctx context.Context, e *env, t scaleTarget, f *scaleFleet, readers clientPool, next []*remoting.Command, res *scaleResult) error {
	rt, isRaftNS := t.(raftnsTarget)
	if isRaftNS {
		res.LeaderBefore = rt.e.leaderTerm(ctx)
	}
	rec := f.stormNext(next)
	e.logf("scale: restart storm at the next heartbeat round (within %v)", s.Heartbeat)
	err := launch.Poll(ctx, s.Heartbeat+5*time.Second, 10*time.Millisecond, "the storm's round", func() (bool, error) {
		return f.stormStarted(rec), nil
	})
	if err != nil {
		return err
	}
	res.StormReads = s.reads(ctx, t, readers, f.brokers, s.Heartbeat)
	if res.Idle.OpsPerS > 0 {
		res.ReadRatio = res.StormReads.OpsPerS / res.Idle.OpsPerS
	}
	if res.Storm, err = f.awaitStorm(ctx, rec); err != nil {
		return err
	}
	if isRaftNS {
		res.LeaderAfter = rt.e.leaderTerm(ctx)
	}
	e.logf("scale: storm: %d failed registrations, %d brokers missing longer than %v, reads %.0f/s (idle %.0f/s)",
		res.Storm.FailedRegistrations, res.Storm.MissingOverPeriod, s.Heartbeat, res.StormReads.OpsPerS, res.Idle.OpsPerS)
	return nil
}

// stormStarted reports whether the storm's round has begun.
func (f *scaleFleet) stormStarted(s *stormRecord) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !s.start.IsZero()
}

// restart stops one server gracefully, starts it again and measures how
// soon it answers and how soon it lists every broker again (a reference
// NameServer starts empty and learns them from the next heartbeats).
func (s *scaleScenario) restart(ctx context.Context, e *env, t scaleTarget, sb *scaleBrokers, probe *nsclient.Client) (scaleRestart, error) {
	i, err := t.restartable(ctx)
	if err != nil {
		return scaleRestart{}, err
	}
	rr := scaleRestart{Server: t.ids()[i]}
	e.logf("scale: restarting %s", rr.Server)
	t.stop(i)
	t0 := time.Now()
	if err := t.start(i); err != nil {
		return rr, err
	}
	answered, complete, err := watchServer(ctx, probe, t.addrs()[i], sb, 2*s.Heartbeat+readyTimeout)
	if err != nil {
		return rr, fmt.Errorf("restart of %s: %w", rr.Server, err)
	}
	rr.AnswersMs, rr.CompleteMs = ms(answered.Sub(t0)), ms(complete.Sub(t0))
	if v, ok := t.restoreMs(ctx, i); ok {
		rr.RestoreMs = &v
	}
	return rr, nil
}
