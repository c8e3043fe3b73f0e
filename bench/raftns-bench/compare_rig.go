package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// compareRig is what compare measures, kept across rounds: the single
// member (e), the three-member cluster (e3) with its leader and the
// follower the follower figures go through, the raw Raft servers, the
// write targets and, for the read figures, the route requests and the
// ceiling server answering the first route's body. close stops and closes
// what the rig started, in reverse order.
type compareRig struct {
	e, e3            *env
	leader, follower *member
	raw1, raw3       *rawCluster
	probe            *nsclient.Client
	targets          []*compareTarget
	routeReqs        []*remoting.Command
	routeBody        []byte
	ceiling          *rawProc
	readers          clientPool
	// keptAt is when the targets' brokers were last kept alive.
	keptAt  time.Time
	closers []func()
}

// setUp starts the three-member cluster and the raw servers next to the
// single member of e and prepares the figures -only leaves in. The rig is
// returned with an error too, to be closed.
func (s *compareScenario) setUp(ctx context.Context, e *env) (*compareRig, error) {
	rig := &compareRig{e: e, probe: e.newClient()}
	rig.onClose(func() { rig.probe.Close() })
	if err := rig.startThree(ctx); err != nil {
		return rig, err
	}
	if err := s.startRaw(ctx, rig); err != nil {
		return rig, err
	}
	if err := s.addTargets(ctx, rig); err != nil {
		return rig, err
	}
	if s.wants(figRoute) {
		return rig, s.setUpReads(ctx, rig)
	}
	return rig, nil
}

func (rig *compareRig) onClose(f func()) { rig.closers = append(rig.closers, f) }

func (rig *compareRig) close() {
	for _, f := range slices.Backward(rig.closers) {
		f()
	}
}

// startThree starts the three-member cluster in e's work directory (kept
// or removed with it) and finds its leader and a follower.
func (rig *compareRig) startThree(ctx context.Context) error {
	e := rig.e
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
	rig.e3 = e3
	rig.onClose(e3.close)
	if rig.leader, err = e3.pick(ctx, "leader"); err != nil {
		return err
	}
	rig.follower, err = e3.pick(ctx, "follower")
	return err
}

// startRaw starts the raw Raft servers of one and three nodes; one the
// run does not measure is left empty.
func (s *compareScenario) startRaw(ctx context.Context, rig *compareRig) error {
	probeReg := newNaming().broker("probe", 0, nil)
	probe := func(ctx context.Context, addr string) error {
		_, err := rig.probe.RegisterBroker(ctx, addr, probeReg)
		return err
	}
	e := rig.e
	start := func(fig, name string, nodes int) (*rawCluster, error) {
		if !s.wants(fig) {
			return &rawCluster{leader: &rawProc{}}, nil
		}
		rc, err := startRawCluster(ctx, e.workDir, name, nodes, rawArgs(e.opts.MemberArgs), probe)
		if err == nil {
			rig.onClose(rc.stop)
		}
		return rc, err
	}
	var err error
	if rig.raw1, err = start(figRaw1, "raw1", 1); err != nil {
		return err
	}
	rig.raw3, err = start(figRaw3, "raw3", 3)
	return err
}

// addTargets registers the brokers of every write figure -only leaves in
// on their target.
func (s *compareScenario) addTargets(ctx context.Context, rig *compareRig) error {
	rig.onClose(func() {
		for _, t := range rig.targets {
			t.clients.close()
		}
	})
	n := newNaming()
	for _, spec := range []struct {
		name, addr  string
		bumps, live bool
	}{
		{figRaw1, rig.raw1.leader.clientAddr, true, false},
		{figSingle, rig.e.members[0].ClientAddr, true, true},
		{figRaw3, rig.raw3.leader.clientAddr, true, false},
		{figLeader, rig.leader.ClientAddr, true, true},
		{figFollower, rig.follower.ClientAddr, true, true},
		{figHeartbeat, rig.follower.ClientAddr, false, true},
	} {
		if !s.wants(spec.name) {
			continue
		}
		t := &compareTarget{name: spec.name, addr: spec.addr, bumps: spec.bumps, live: spec.live,
			clients: rig.e.newClients(slices.Max(s.WriteClients))}
		rig.targets = append(rig.targets, t)
		if err := t.register(ctx, n, fmt.Sprintf("t%d", len(rig.targets)-1), s.Topics); err != nil {
			return fmt.Errorf("%s: %w", spec.name, err)
		}
	}
	return nil
}

// setUpReads registers the brokers and topics the route figures read on
// the three-member cluster and starts the ceiling server with the first
// route's answer.
func (s *compareScenario) setUpReads(ctx context.Context, rig *compareRig) error {
	topics, stop, err := (&routeScenario{Brokers: 4, Topics: 100, Queues: 8}).setup(ctx, rig.e3)
	if err != nil {
		return err
	}
	rig.onClose(stop)
	for _, t := range topics {
		rig.routeReqs = append(rig.routeReqs, &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA", Version: nsclient.Version5,
			ExtFields: map[string]string{"topic": t}})
	}
	first, err := rig.probe.Invoke(ctx, rig.follower.ClientAddr, rig.routeReqs[0])
	if err != nil {
		return fmt.Errorf("route of %s: %w", topics[0], err)
	}
	rig.routeBody = first.Body
	e := rig.e
	probe := func(ctx context.Context, addr string) error {
		_, err := rig.probe.Invoke(ctx, addr, rig.routeReqs[0])
		return err
	}
	if rig.ceiling, err = startCeiling(ctx, e.workDir, first.Body, rawArgs(e.opts.MemberArgs), probe); err != nil {
		return err
	}
	rig.onClose(rig.ceiling.stop)
	rig.readers = e.newClients(slices.Max(s.ReadClients))
	rig.onClose(rig.readers.close)
	return nil
}

// readFigure is one read figure: its name and the address it reads.
type readFigure struct{ fig, addr string }

// figures returns the write targets and the read figures in the order
// round measures them: every other round runs them in reverse, so that no
// figure always follows the same one (the first read figure would
// otherwise always come right after the write figures, and a raw ceiling
// always before the figure compared with it).
func (rig *compareRig) figures(round int) ([]*compareTarget, []readFigure) {
	targets := slices.Clone(rig.targets)
	var reads []readFigure
	if rig.ceiling != nil {
		reads = []readFigure{{figRoute, rig.follower.ClientAddr}, {figCeiling, rig.ceiling.clientAddr}}
	}
	if round%2 == 0 {
		slices.Reverse(targets)
		slices.Reverse(reads)
	}
	return targets, reads
}

// keepAlive keeps every RaftNS target's brokers alive, between figures, at
// about the brokers' own heartbeat interval (compareTarget.keepAlive).
func (rig *compareRig) keepAlive(ctx context.Context) error {
	if time.Since(rig.keptAt) < compareKeepAlive {
		return nil
	}
	for _, t := range rig.targets {
		if t.live {
			if err := t.keepAlive(ctx); err != nil {
				return err
			}
		}
	}
	rig.keptAt = time.Now()
	return nil
}

// members describes the processes the rig started, for the report.
func (rig *compareRig) members() []string {
	var out []string
	for _, m := range rig.e3.members {
		out = append(out, m.String())
	}
	procs := append(slices.Clone(rig.raw1.nodes), rig.raw3.nodes...)
	if rig.ceiling != nil {
		procs = append(procs, rig.ceiling)
	}
	for _, p := range procs {
		out = append(out, p.String())
	}
	return out
}
