package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"
)

// compareScenario runs, in one invocation, RaftNS next to what the same
// machine can do without it, and prints every RaftNS figure as a ratio to
// its ceiling:
//
//   - changed registrations on a single member against an Apply-only front
//     end over plain hashicorp/raft on one node (same stores, same settings);
//   - changed registrations through the leader and through a follower of
//     three members against the same front end on three raw Raft nodes;
//   - heartbeats (unchanged registrations) through a follower against route
//     reads on that member;
//   - route reads on that member against a server answering every request
//     with the same precomputed route body.
//
// The raw Raft nodes and the read ceiling run from this program
// (`raftns-bench serve-raw`, package bench/rawserve).
//
// Every figure is measured in each round, the figures interleaved (every
// other round in reverse order), and the median over the rounds is
// reported.
type compareScenario struct {
	Rounds int `json:"rounds"`
	loadFlags
	WriteClients []int `json:"writeClients"`
	ReadClients  []int `json:"readClients"`
	Topics       int   `json:"topics"`
	// Only limits the figures (onlyFigures): "write" measures the changed
	// registrations and their raw Raft ceilings, "single" the single member
	// and raw Raft on one node, "reads" the route reads and their ceiling.
	Only string `json:"only,omitempty"`
}

// compareKeepAlive is how often, between figures, compare keeps the
// brokers of its RaftNS targets alive: a broker's heartbeat interval.
const compareKeepAlive = 30 * time.Second

func (s *compareScenario) bind(fs *flag.FlagSet) {
	fs.IntVar(&s.Rounds, "rounds", 3, "rounds; each measures every figure once")
	s.loadFlags.bind(fs, 3*time.Second, "figure")
	fs.Func("write-clients", "concurrent brokers of the write figures, N,N,... (default 16,64)", intList(&s.WriteClients))
	fs.Func("read-clients", "concurrent clients of the read figures, N,N,... (default 1,16,64)", intList(&s.ReadClients))
	fs.IntVar(&s.Topics, "topics", 10, "topics per registering broker")
	fs.StringVar(&s.Only, "only", "", "measure a subset of the figures: write (changed registrations and raw raft), single (single member and raw raft 1 node) or reads (route reads and their ceiling); default all")
}

func (s *compareScenario) check(c *commonOptions, _ map[string]bool) error {
	if len(s.WriteClients) == 0 {
		s.WriteClients = []int{16, 64}
	}
	if len(s.ReadClients) == 0 {
		s.ReadClients = []int{1, 16, 64}
	}
	if err := s.loadFlags.check(); err != nil {
		return err
	}
	switch {
	case s.Rounds < 1:
		return fmt.Errorf("%w: -rounds must be at least 1", errUsage)
	case slices.Min(s.WriteClients) < 1 || slices.Min(s.ReadClients) < 1:
		return fmt.Errorf("%w: -write-clients and -read-clients must be positive", errUsage)
	case s.Topics < 0:
		return fmt.Errorf("%w: -topics must not be negative", errUsage)
	case s.Only != "" && onlyFigures[s.Only] == nil:
		return fmt.Errorf("%w: -only %q: want write, single or reads", errUsage, s.Only)
	}
	c.Members = 1 // the single member; the three-member cluster is started by run
	return nil
}

// Figure names, in the order they are measured within a round.
const (
	figRaw1      = "raw raft, 1 node: Apply per request"
	figSingle    = "RaftNS single member: changed REGISTER_BROKER"
	figRaw3      = "raw raft, 3 nodes: Apply per request on the leader"
	figLeader    = "RaftNS 3 members: changed REGISTER_BROKER via the leader"
	figFollower  = "RaftNS 3 members: changed REGISTER_BROKER via a follower"
	figHeartbeat = "RaftNS 3 members: unchanged REGISTER_BROKER (heartbeat) via a follower"
	figRoute     = "RaftNS 3 members: GET_ROUTEINFO_BY_TOPIC on that follower"
	figCeiling   = "ceiling: precomputed route answer"
)

// ratioSpec says which figure is compared with which ceiling, and the
// ratio the RaftNS figure should reach.
type ratioSpec struct {
	figure, ceiling string
	target          float64
}

var compareRatios = []ratioSpec{
	{figSingle, figRaw1, 0.8},
	{figLeader, figRaw3, 0.9},
	{figFollower, figRaw3, 0.85},
	{figHeartbeat, figRoute, 0.5},
	{figRoute, figCeiling, 0.9},
}

func (s *compareScenario) run(ctx context.Context, e *env, r *Report) error {
	rig, err := s.setUp(ctx, e)
	defer rig.close()
	if err != nil {
		return err
	}
	rec := &compareRecorder{e: e, rows: map[string]*compareRow{}}
	hbEntries, err := s.measure(ctx, rig, rec)
	if err != nil {
		return err
	}
	rows := rec.finish()
	r.show(compareResults{Rows: rows, HeartbeatLogEntries: hbEntries, RouteBodyBytes: len(rig.routeBody)},
		s.ratioTable(rows), s.figureTable(rows))
	r.Members = append(r.Members, rig.members()...)
	r.notef("heartbeat figures wrote %d log entries on the three-member cluster (must be 0)", hbEntries)
	r.notef("route body %d bytes (4 brokers, 100 topics); registering brokers carry %d topics each", len(rig.routeBody), s.Topics)
	r.notef("load generator, RaftNS members and raw servers share this machine's CPUs; compare ratios within one run only")
	return nil
}

// measure runs the rounds: each measures every figure at every
// concurrency once (compareRig.figures gives the order). It returns how
// many entries the three-member cluster wrote during the heartbeat
// figures.
func (s *compareScenario) measure(ctx context.Context, rig *compareRig, rec *compareRecorder) (hbEntries int64, err error) {
	for round := 1; round <= s.Rounds; round++ {
		rig.e.logf("compare: round %d of %d", round, s.Rounds)
		targets, reads := rig.figures(round)
		for _, c := range s.WriteClients {
			for _, t := range targets {
				grown, err := s.writeFigure(ctx, rig, rec, t, c)
				if err != nil {
					return hbEntries, err
				}
				hbEntries += grown
			}
		}
		for _, c := range s.readClients() {
			for _, rf := range reads {
				if err := s.readFigure(ctx, rig, rec, rf, c); err != nil {
					return hbEntries, err
				}
			}
		}
	}
	return hbEntries, nil
}

// writeFigure measures target t with c clients; for a heartbeat target it
// returns how far the leader's applied index moved meanwhile: the entries
// written, without the barrier the previous figure's last writes through a
// follower may still add.
func (s *compareScenario) writeFigure(ctx context.Context, rig *compareRig, rec *compareRecorder, t *compareTarget, c int) (int64, error) {
	if err := rig.keepAlive(ctx); err != nil {
		return 0, err
	}
	before, _ := appliedIndex(ctx, rig.leader)
	rec.record(t.name, c, s.phase(c).run(ctx, t.send))
	if t.bumps {
		return 0, nil
	}
	after, _ := appliedIndex(ctx, rig.leader)
	return int64(after) - int64(before), nil
}

// readFigure measures route reads at rf's address with c clients, each
// asking for the next topic in turn.
func (s *compareScenario) readFigure(ctx context.Context, rig *compareRig, rec *compareRecorder, rf readFigure, c int) error {
	if err := rig.keepAlive(ctx); err != nil {
		return err
	}
	next := make([]int, c)
	rec.record(rf.fig, c, s.phase(c).run(ctx, func(ctx context.Context, w int) error {
		req := rig.routeReqs[(w+next[w])%len(rig.routeReqs)]
		next[w]++
		_, err := rig.readers[w].Invoke(ctx, rf.addr, req)
		return err
	}))
	return nil
}

// onlyFigures are the figures each -only value measures.
var onlyFigures = map[string][]string{
	"write":  {figRaw1, figSingle, figRaw3, figLeader, figFollower},
	"single": {figRaw1, figSingle},
	"reads":  {figRoute, figCeiling},
}

// wants reports whether -only leaves figure in.
func (s *compareScenario) wants(figure string) bool {
	return s.Only == "" || slices.Contains(onlyFigures[s.Only], figure)
}

// readClients are the concurrencies of the read figures, none when -only
// leaves them out.
func (s *compareScenario) readClients() []int {
	if !s.wants(figRoute) {
		return nil
	}
	return s.ReadClients
}

// rawArgs passes the --raft-multiplier and --gc-percent given to the
// members on to the raw servers, so that both run the same Raft timers and
// the same garbage collector target.
func rawArgs(memberArgs []string) []string {
	var out []string
	for i, a := range memberArgs {
		for _, name := range []string{"raft-multiplier", "gc-percent"} {
			if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
				out = append(out, "-"+name, v)
			} else if a == "--"+name && i+1 < len(memberArgs) {
				out = append(out, "-"+name, memberArgs[i+1])
			}
		}
	}
	return out
}
