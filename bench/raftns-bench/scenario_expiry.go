package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/raftns/raftns/client/nsclient"
)

// expiryScenario registers brokers that heartbeat to every member, silences
// some of them and measures, per silenced broker, the time from its last
// heartbeat to its disappearance from the routes (GET_BROKER_CLUSTER_INFO,
// polled). The others keep heartbeating and must never disappear. With
// -failover the leader is killed while the silenced brokers wait to expire.
type expiryScenario struct {
	Brokers      int           `json:"brokers"`
	Live         int           `json:"live"`
	Heartbeat    time.Duration `json:"heartbeat"`
	Warm         time.Duration `json:"warm"`
	BrokerExpiry time.Duration `json:"brokerExpiry"`
	ScanInterval time.Duration `json:"scanInterval"`
	Poll         time.Duration `json:"poll"`
	Failover     bool          `json:"failover"`
	KillAfter    time.Duration `json:"killAfter,omitempty"`
	CloseConns   bool          `json:"closeConns"`
	// scanKnown is false for running members whose scan interval the
	// tool was not told.
	scanKnown bool
}

func (s *expiryScenario) bind(fs *flag.FlagSet) {
	fs.IntVar(&s.Brokers, "brokers", 20, "brokers to silence")
	fs.IntVar(&s.Live, "live", 50, "brokers that keep heartbeating (must survive)")
	fs.DurationVar(&s.Heartbeat, "heartbeat", time.Second, "heartbeat interval (unchanged REGISTER_BROKER to every member)")
	fs.DurationVar(&s.Warm, "warm", 0, "heartbeating before the silence (default: 2 heartbeats, at least 2s)")
	fs.DurationVar(&s.BrokerExpiry, "broker-expiry", 10*time.Second, "broker expiry: passed to started members; with -addrs, the value they run with")
	fs.DurationVar(&s.ScanInterval, "scan-interval", time.Second, "expiry scan interval: passed to started members; with -addrs, for the report only")
	fs.DurationVar(&s.Poll, "poll", 50*time.Millisecond, "how often the routes are read")
	fs.BoolVar(&s.Failover, "failover", false, "kill the leader while the silenced brokers wait to expire")
	fs.DurationVar(&s.KillAfter, "kill-after", 0, "with -failover: silence -> leader kill (default: half the expiry)")
	fs.BoolVar(&s.CloseConns, "close-conns", false, "close the silenced brokers' connections (connection-closed path)")
}

func (s *expiryScenario) check(c *commonOptions, set map[string]bool) error {
	switch {
	case s.Brokers < 1 || s.Live < 0:
		return fmt.Errorf("%w: -brokers must be at least 1 and -live not negative", errUsage)
	case s.Heartbeat <= 0 || s.BrokerExpiry <= 0 || s.ScanInterval <= 0 || s.Poll <= 0 || s.Warm < 0 || s.KillAfter < 0:
		return fmt.Errorf("%w: durations must be positive", errUsage)
	case s.Heartbeat >= s.BrokerExpiry:
		return fmt.Errorf("%w: -heartbeat %v must be shorter than -broker-expiry %v", errUsage, s.Heartbeat, s.BrokerExpiry)
	case !c.starts() && !set["broker-expiry"]:
		return fmt.Errorf("%w: with -addrs, give -broker-expiry (the members' configured expiry)", errUsage)
	case s.Failover && !c.starts():
		return fmt.Errorf("%w: -failover needs members started by the tool (no -addrs)", errUsage)
	}
	if s.Warm == 0 {
		s.Warm = max(2*s.Heartbeat, 2*time.Second)
	}
	if s.Failover && s.KillAfter == 0 {
		s.KillAfter = s.BrokerExpiry / 2
	}
	if s.Failover {
		if err := c.needThreeMembers(set, "-failover"); err != nil {
			return err
		}
	}
	s.scanKnown = c.starts() || set["scan-interval"]
	if c.starts() {
		c.MemberArgs = append([]string{"--broker-expiry", s.BrokerExpiry.String(), "--scan-interval", s.ScanInterval.String()}, c.MemberArgs...)
	}
	return nil
}

// expiryResults is the outcome of the run.
type expiryResults struct {
	Silenced int `json:"silenced"`
	Expired  int `json:"expired"`
	// Latency is last heartbeat → seen gone.
	Latency Summary `json:"latency"`
	// Overshoot is Latency minus the configured expiry.
	Overshoot Summary `json:"overshoot"`
	// SinceKill is leader kill → seen gone (with -failover).
	SinceKill *Summary `json:"sinceKill,omitempty"`
	// SinceClose is connections closed → seen gone (with -close-conns).
	SinceClose *Summary `json:"sinceClose,omitempty"`
	// Early counts brokers gone before the expiry had passed (a bug on the
	// timeout path; not counted with -close-conns).
	Early    int      `json:"early"`
	LiveLost []string `json:"liveLost,omitempty"`
	Killed   string   `json:"killed,omitempty"`
	PolledOn string   `json:"polledOn"`
	// LeaderAtSilence and LeaderAtEnd name the leader (id and term) when
	// the brokers went silent and when the last one was gone; a change
	// restarts every broker's clock at the new leader's takeover.
	LeaderAtSilence string `json:"leaderAtSilence,omitempty"`
	LeaderAtEnd     string `json:"leaderAtEnd,omitempty"`
}

func (s *expiryScenario) run(ctx context.Context, e *env, r *Report) error {
	leader, err := e.leader(ctx)
	if err != nil {
		return err
	}
	watch := leader
	if s.Failover {
		if watch, err = e.pick(ctx, "follower"); err != nil {
			return err
		}
	}
	n := newNaming()
	live, gone := s.brokers(n, "live", s.Live), s.brokers(n, "gone", s.Brokers)
	// The heartbeats below take the brokers over on their own connections
	// before the close of these can expire anyone.
	pool := e.newClients(4)
	err = registerAll(ctx, pool, leader.ClientAddr, append(append([]*nsclient.Registration{}, live...), gone...))
	if err != nil {
		pool.close()
		return err
	}
	liveHB := startHeartbeats(ctx, e, live, s.Heartbeat)
	defer liveHB.client.Close()
	defer liveHB.stop()
	goneHB := startHeartbeats(ctx, e, gone, s.Heartbeat)
	defer goneHB.client.Close()
	defer goneHB.stop()
	pool.close()
	e.logf("expiry: %d live and %d doomed brokers heartbeating every %v for %v", s.Live, s.Brokers, s.Heartbeat, s.Warm)
	if err := sleepCtx(ctx, s.Warm); err != nil {
		return err
	}
	lastHB := goneHB.stop()
	if s.CloseConns {
		goneHB.client.Close()
	}
	silencedAt := time.Now()
	atSilence := e.leaderTerm(ctx)
	e.logf("expiry: silenced %d brokers; expiry %v, scan %v", s.Brokers, s.BrokerExpiry, s.ScanInterval)
	res, err := s.watch(ctx, e, watch, leader, gone, live, lastHB, silencedAt)
	if err != nil {
		return err
	}
	res.LeaderAtSilence, res.LeaderAtEnd = atSilence, e.leaderTerm(ctx)
	r.show(res, s.table(res))
	s.notes(r, res)
	return nil
}

// brokers returns count brokers of group, each with one topic of its own.
func (s *expiryScenario) brokers(n naming, group string, count int) []*nsclient.Registration {
	regs := make([]*nsclient.Registration, count)
	for i := range regs {
		regs[i] = n.broker(group, i, topicConfigs(n.topics(fmt.Sprintf("%s%d", group, i), 1), 4))
	}
	return regs
}

// watch polls the cluster info on member until every silenced broker is
// gone or the deadline passes, killing leader on the way with -failover.
func (s *expiryScenario) watch(ctx context.Context, e *env, on, leader *member, gone, live []*nsclient.Registration,
	lastHB map[string]time.Time, silencedAt time.Time) (expiryResults, error) {
	res := expiryResults{Silenced: len(gone), PolledOn: on.ID}
	c := e.newClient()
	defer c.Close()
	seenGone := map[string]time.Time{}
	lost := map[string]bool{}
	var killAt time.Time
	deadline := silencedAt.Add(s.KillAfter + 2*s.BrokerExpiry + s.ScanInterval + readyTimeout)
	for len(seenGone) < len(gone) && time.Now().Before(deadline) {
		if s.Failover && killAt.IsZero() && time.Since(silencedAt) >= s.KillAfter {
			e.logf("expiry: killing leader %s", leader.ID)
			killAt = time.Now()
			leader.Kill()
			res.Killed = leader.ID
		}
		info, err := c.GetClusterInfo(ctx, on.ClientAddr)
		now := time.Now()
		if err == nil {
			for _, g := range gone {
				if _, ok := info.BrokerAddrTable[g.BrokerName]; !ok && seenGone[g.BrokerName].IsZero() {
					seenGone[g.BrokerName] = now
				}
			}
			for _, l := range live {
				if _, ok := info.BrokerAddrTable[l.BrokerName]; !ok {
					lost[l.BrokerName] = true
				}
			}
		}
		if err := sleepCtx(ctx, s.Poll); err != nil {
			return res, err
		}
	}
	var lat, over, sinceKill, sinceClose []time.Duration
	for name, at := range seenGone {
		d := at.Sub(lastHB[name])
		lat, over = append(lat, d), append(over, d-s.BrokerExpiry)
		if d < s.BrokerExpiry && !s.CloseConns {
			res.Early++
		}
		if !killAt.IsZero() {
			sinceKill = append(sinceKill, at.Sub(killAt))
		}
		if s.CloseConns {
			sinceClose = append(sinceClose, at.Sub(silencedAt))
		}
	}
	res.Expired = len(seenGone)
	res.Latency, res.Overshoot = summarize(lat), summarize(over)
	if !killAt.IsZero() {
		sk := summarize(sinceKill)
		res.SinceKill = &sk
	}
	if s.CloseConns {
		sc := summarize(sinceClose)
		res.SinceClose = &sc
	}
	for name := range lost {
		res.LiveLost = append(res.LiveLost, name)
	}
	return res, nil
}

func (s *expiryScenario) table(res expiryResults) Table {
	scan := "as configured"
	if s.scanKnown {
		scan = s.ScanInterval.String()
	}
	title := fmt.Sprintf("expiry latency (ms), expiry %v, scan %s, heartbeat %v, poll %v", s.BrokerExpiry, scan, s.Heartbeat, s.Poll)
	if s.Failover {
		title += fmt.Sprintf(", leader %s killed %v after the silence", res.Killed, s.KillAfter)
	}
	t := Table{Title: title, Columns: []string{"measure", "brokers", "min", "p50", "p90", "p99", "max"}}
	add := func(name string, sm Summary) {
		t.add(name, sm.Count, sm.MinMs, sm.P50Ms, sm.P90Ms, sm.P99Ms, sm.MaxMs)
	}
	add("last heartbeat -> gone", res.Latency)
	if res.SinceClose != nil {
		add("connections closed -> gone", *res.SinceClose)
	} else {
		add("minus configured expiry", res.Overshoot)
	}
	if res.SinceKill != nil {
		add("leader kill -> gone", *res.SinceKill)
	}
	return t
}

func (s *expiryScenario) notes(r *Report, res expiryResults) {
	r.notef("%d of %d silenced brokers expired (polled on %s); %d live brokers lost", res.Expired, res.Silenced, res.PolledOn, len(res.LiveLost))
	if res.Early > 0 {
		r.notef("WRONG: %d brokers disappeared before the expiry had passed since their last heartbeat", res.Early)
	}
	if len(res.LiveLost) > 0 {
		r.notef("WRONG: brokers that kept heartbeating disappeared: %v", res.LiveLost)
	}
	if res.Expired < res.Silenced {
		r.notef("WRONG: %d silenced brokers never expired", res.Silenced-res.Expired)
	}
	if res.LeaderAtSilence != res.LeaderAtEnd {
		r.notef("the leader changed from %s to %s while the brokers were silent: the new leader counted every broker as just heard from when it took office",
			res.LeaderAtSilence, res.LeaderAtEnd)
	}
	if s.CloseConns {
		r.notef("connections were closed: expiry follows the members' connection-close grace (default 5s), not the expiry time")
	}
	if s.Brokers > 100 && float64(s.Brokers) > 0.3*float64(s.Brokers+s.Live) {
		r.notef("more than 30%% of the brokers go silent at once: the leader's mass-expiry guard expires one batch per scan")
	}
	r.notef("precision: the routes are polled every %v, so each latency is late by up to one poll", s.Poll)
}
