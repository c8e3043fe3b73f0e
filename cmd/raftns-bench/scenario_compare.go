package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/transport/nsclient"
	"github.com/raftns/raftns/transport/remoting"
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
// The raw Raft nodes and the read ceiling run from the members' own binary
// (`raftns serve-raw`), so that code layout is the same on both sides of a
// ratio.
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
	reads           bool
}

var compareRatios = []ratioSpec{
	{figSingle, figRaw1, 0.8, false},
	{figLeader, figRaw3, 0.9, false},
	{figFollower, figRaw3, 0.85, false},
	{figHeartbeat, figRoute, 0.5, false},
	{figRoute, figCeiling, 0.9, true},
}

func (s *compareScenario) run(ctx context.Context, e *env, r *Report) error {
	maxW := slices.Max(s.WriteClients)
	maxR := slices.Max(s.ReadClients)
	if err := e.makeWorkDir(); err != nil {
		return err
	}
	opts3 := e.opts
	opts3.Members = 3
	opts3.WorkDir = e.workDir + "/three"
	e3, err := newEnv(ctx, opts3, e.progress)
	if err != nil {
		return err
	}
	e3.tempDir = true // inside e's work directory: kept or removed with it
	defer e3.close()
	leader, err := e3.pick(ctx, "leader")
	if err != nil {
		return err
	}
	follower, err := e3.pick(ctx, "follower")
	if err != nil {
		return err
	}
	probeClient := e.newClient()
	defer probeClient.Close()
	probeReg := newNaming().broker("probe", 0, nil)
	probe := func(ctx context.Context, addr string) error {
		_, err := probeClient.RegisterBroker(ctx, addr, probeReg)
		return err
	}
	raftArgs := rawArgs(e.opts.MemberArgs)
	// A raw cluster the run does not measure is left empty.
	startRaw := func(fig, name string, nodes int) (*rawCluster, *rawProc, error) {
		if !s.wants(fig) {
			return &rawCluster{}, &rawProc{}, nil
		}
		return startRawCluster(ctx, e.opts.Raftns, e.workDir, name, nodes, raftArgs, probe)
	}
	raw1, raw1Leader, err := startRaw(figRaw1, "raw1", 1)
	if err != nil {
		return err
	}
	defer raw1.stop()
	raw3, raw3Leader, err := startRaw(figRaw3, "raw3", 3)
	if err != nil {
		return err
	}
	defer raw3.stop()

	n := newNaming()
	var targets []*compareTarget
	defer func() {
		for _, t := range targets {
			t.clients.close()
		}
	}()
	target := func(name, addr string, bumps, live bool) (*compareTarget, error) {
		t := &compareTarget{name: name, addr: addr, bumps: bumps, live: live, clients: e.newClients(maxW)}
		group := fmt.Sprintf("t%d", len(targets))
		for i := range maxW {
			t.regs = append(t.regs, n.broker(group, i, topicConfigs(n.topics(fmt.Sprintf("%s-%d", group, i), s.Topics), 8)))
		}
		for i, r := range t.regs {
			req, err := t.clients[i].RegisterRequest(r)
			if err != nil {
				return t, err
			}
			t.heartbeats = append(t.heartbeats, req)
		}
		return t, registerAll(ctx, t.clients, addr, t.regs)
	}
	for _, spec := range []struct {
		name, addr  string
		bumps, live bool
	}{
		{figRaw1, raw1Leader.clientAddr, true, false},
		{figSingle, e.members[0].ClientAddr, true, true},
		{figRaw3, raw3Leader.clientAddr, true, false},
		{figLeader, leader.ClientAddr, true, true},
		{figFollower, follower.ClientAddr, true, true},
		{figHeartbeat, follower.ClientAddr, false, true},
	} {
		if !s.wants(spec.name) {
			continue
		}
		t, err := target(spec.name, spec.addr, spec.bumps, spec.live)
		if t != nil {
			targets = append(targets, t)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", spec.name, err)
		}
	}

	var routeReqs []*remoting.Command
	first, ceiling := &remoting.Command{}, (*rawProc)(nil)
	var readers clientPool
	if s.wants(figRoute) {
		routeTopics, routeStop, err := (&routeScenario{Brokers: 4, Topics: 100, Queues: 8}).setup(ctx, e3)
		if err != nil {
			return err
		}
		defer routeStop()
		routeReqs = make([]*remoting.Command, len(routeTopics))
		for i, t := range routeTopics {
			routeReqs[i] = &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA", Version: nsclient.Version5,
				ExtFields: map[string]string{"topic": t}}
		}
		if first, err = probeClient.Invoke(ctx, follower.ClientAddr, routeReqs[0]); err != nil {
			return fmt.Errorf("route of %s: %w", routeTopics[0], err)
		}
		if ceiling, err = startCeiling(ctx, e.opts.Raftns, e.workDir, first.Body, raftArgs); err != nil {
			return err
		}
		defer ceiling.stop()
		readers = e.newClients(maxR)
		defer readers.close()
	}

	rows := map[string]*compareRow{}
	var order []*compareRow
	record := func(fig string, c int, out loadOutcome) {
		key := fig + "/" + strconv.Itoa(c)
		row := rows[key]
		if row == nil {
			row = &compareRow{Figure: fig, Clients: c}
			rows[key] = row
			order = append(order, row)
		}
		ops := rate(len(out.lat), out.elapsed)
		row.Rounds = append(row.Rounds, ops)
		row.Errors += out.errors
		row.P50Ms = append(row.P50Ms, summarize(out.lat).P50Ms)
		e.logf("  %-75s c=%-3d %9.0f ops/s  errors %d", fig, c, ops, out.errors)
		if out.firstErr != nil {
			e.logf("    first error: %v", out.firstErr)
		}
	}
	phase := s.phase(0)
	// Between figures, every RaftNS target's brokers are kept alive at
	// about the brokers' own heartbeat interval (keepAlive).
	var keptAt time.Time
	keepAlive := func() error {
		if time.Since(keptAt) < compareKeepAlive {
			return nil
		}
		for _, t := range targets {
			if t.live {
				if err := t.keepAlive(ctx); err != nil {
					return err
				}
			}
		}
		keptAt = time.Now()
		return nil
	}
	var hbEntries int64
	for round := 1; round <= s.Rounds; round++ {
		e.logf("compare: round %d of %d", round, s.Rounds)
		// Every other round runs the figures in reverse order, so that no
		// figure always follows the same one: the first read figure would
		// otherwise always come right after the write figures, and a raw
		// ceiling always before the figure compared with it.
		order := slices.Clone(targets)
		type readFigure struct{ fig, addr string }
		var reads []readFigure
		if ceiling != nil {
			reads = []readFigure{{figRoute, follower.ClientAddr}, {figCeiling, ceiling.clientAddr}}
		}
		if round%2 == 0 {
			slices.Reverse(order)
			slices.Reverse(reads)
		}
		for _, c := range s.WriteClients {
			for _, t := range order {
				if err := keepAlive(); err != nil {
					return err
				}
				before, _ := lastIndex(ctx, leader)
				phase.workers = c
				record(t.name, c, phase.run(ctx, func(ctx context.Context, w int) error {
					if !t.bumps {
						// A heartbeat is the same request every time: the
						// client sends it pre-encoded, as route queries are.
						_, err := t.clients[w].Invoke(ctx, t.addr, t.heartbeats[w])
						return err
					}
					bump(t.regs[w])
					_, err := t.clients[w].RegisterBroker(ctx, t.addr, t.regs[w])
					return err
				}))
				if !t.bumps {
					after, _ := lastIndex(ctx, leader)
					hbEntries += int64(after) - int64(before)
				}
			}
		}
		for _, c := range s.readClients() {
			for _, rt := range reads {
				if err := keepAlive(); err != nil {
					return err
				}
				next := make([]int, c)
				phase.workers = c
				record(rt.fig, c, phase.run(ctx, func(ctx context.Context, w int) error {
					req := routeReqs[(w+next[w])%len(routeReqs)]
					next[w]++
					_, err := readers[w].Invoke(ctx, rt.addr, req)
					return err
				}))
			}
		}
	}
	res := compareResults{HeartbeatLogEntries: hbEntries, RouteBodyBytes: len(first.Body)}
	for _, row := range order {
		row.Median = median(row.Rounds)
	}
	for _, spec := range compareRatios {
		for _, row := range order {
			if row.Figure != spec.figure {
				continue
			}
			if ceil := rows[spec.ceiling+"/"+strconv.Itoa(row.Clients)]; ceil != nil && ceil.Median > 0 {
				row.Ceiling, row.Target = spec.ceiling, spec.target
				row.Ratio = row.Median / ceil.Median
				row.TargetMet = row.Ratio >= spec.target
				for i := range min(len(row.Rounds), len(ceil.Rounds)) {
					if ceil.Rounds[i] > 0 {
						row.RoundRatios = append(row.RoundRatios, row.Rounds[i]/ceil.Rounds[i])
					}
				}
				row.RatioOfRounds = median(row.RoundRatios)
			}
		}
	}
	res.Rows = order
	r.Results = res
	r.Tables = append(r.Tables, s.ratioTable(order), s.figureTable(order))
	for _, m := range e3.members {
		r.Members = append(r.Members, m.String())
	}
	procs := append(slices.Clone(raw1.nodes), raw3.nodes...)
	if ceiling != nil {
		procs = append(procs, ceiling)
	}
	for _, p := range procs {
		r.Members = append(r.Members, p.String())
	}
	r.notef("heartbeat figures wrote %d log entries on the three-member cluster (must be 0)", hbEntries)
	r.notef("route body %d bytes (4 brokers, 100 topics); registering brokers carry %d topics each", len(first.Body), s.Topics)
	r.notef("load generator, RaftNS members and raw servers share this machine's CPUs; compare ratios within one run only")
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
