package cluster

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/transport"
	"github.com/raftns/raftns/transport/lane"
)

// Node is one RaftNS member's Raft node.
type Node struct {
	cfg *Config
	// settings reports the member's settings for Status (settings.go).
	settings atomic.Pointer[func() []adminapi.Setting]
	logger   hclog.Logger
	fsm      *fsm.FSM
	raft     *raft.Raft
	stores   *stores
	mux      *transport.Mux
	trans    *transport.Noticed
	pool     *rpcPool
	// lanes carry forwarded writes to the leader; forwards serves the
	// lanes of the other members (package lane).
	lanes    *lane.Lanes
	forwards *lane.Server
	stats    Stats
	// requests assigns the request ids of the writes this member takes.
	requests *requestTracker

	// tenure takes and leaves office (leadership.go).
	tenure *tenure

	// calls are the operations other packages run on the leader
	// (leadercall.go); offices the duties of the leader in office that
	// they register (office.go).
	calls   leaderCalls
	offices officeHooks
	// formed raises a new cluster's version (formed_version.go).
	formed *formedVersionDuty

	// proposer is the leader's side of writes (propose.go).
	proposer *proposer
	// audit stamps audited entries and hears their records (audit.go).
	audit   *auditor
	lessor  *liveness.Lessor
	expiry  *liveness.Expirer
	members *membership
	// readiness decides whether this member serves reads (readiness.go).
	readiness *readinessMonitor
	// leaders wake writes waiting on a leader that changed or went silent.
	leaders *leaderSignals
	// ready is who among the members serves reads (readyview.go).
	ready *readyView
	// visible is the index reads wait for after writes this member
	// answered before applying them (visible.go).
	visible visibilityFloor
	// removed is set once this member found it was removed (removed.go).
	removed atomic.Bool
	// admission keeps a member on new storage from voting until it is
	// re-admitted (admission.go); guard enforces it under Raft.
	admission *admission
	guard     *voteGuard

	shutdownOnce sync.Once
	shutdownCh   chan struct{}
	wg           sync.WaitGroup
}

// Stats are counters the admin HTTP layer exports as metrics.
type Stats struct {
	RegistersWritten atomic.Uint64
	RegistersDeduped atomic.Uint64
	ForwardedOut     atomic.Uint64
	ForwardFailures  atomic.Uint64
	ForwardedIn      atomic.Uint64
	Expirations      atomic.Uint64
	LeaderChanges    atomic.Uint64
	// LeaderLossDetected counts the times this member, as a follower, saw
	// the leader's cluster port close and refuse connections and shortened
	// its election timers.
	LeaderLossDetected atomic.Uint64
	// ClusterConnsRejected counts connections to the cluster port closed
	// before they chose a protocol: failed TLS handshakes (no or a foreign
	// certificate, a plain client on a TLS port), failed cluster-key
	// challenges, timeouts, unknown bytes.
	ClusterConnsRejected atomic.Uint64
	// LinearizableReads counts leader-checked reads that passed the check.
	LinearizableReads atomic.Uint64
	// WritesNotApplied counts client and broker writes that failed without
	// reaching any leader: they certainly changed nothing.
	WritesNotApplied atomic.Uint64
	// WritesOutcomeUnknown counts writes that failed after a leader may
	// have taken them: they may or may not have been applied.
	WritesOutcomeUnknown atomic.Uint64
	// RaftAppendsSent counts the AppendEntries requests this member sent
	// on its cluster port: heartbeats, replication and commit notices.
	RaftAppendsSent atomic.Uint64
	// CommitNotices counts the commit notices this member sent as the
	// leader (commitNotice).
	CommitNotices atomic.Uint64
}

// New opens the stores, starts Raft on the cluster listener ln and, on a
// first start, bootstraps or joins as configured. ln must be open; it is
// closed by Shutdown.
func New(cfg *Config, f *fsm.FSM, ln net.Listener) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	n := &Node{
		cfg:        cfg,
		logger:     cfg.Logger.Named("cluster"),
		fsm:        f,
		pool:       newRPCPool(transport.Dialer{TLS: cfg.TLS, Key: cfg.ClusterKey}, cfg.linkDown),
		requests:   newRequestTracker(cfg.ID),
		shutdownCh: make(chan struct{}),
	}
	n.audit = newAuditor(cfg, f, n.logger)
	f.SetAuditObserver(n.audit.Audited)
	n.lanes = newLanes(n.pool.Dialer(), cfg.linkDown, n.logger)
	n.forwards = &lane.Server{Workers: lane.NewWorkers(n.shutdownCh), Forward: (&rpcEndpoint{n: n}).forward,
		HelloTimeout: transport.HandshakeTimeout, Stop: n.shutdownCh, Logger: n.logger}
	n.leaders = newLeaderSignals()
	n.ready = newReadyView(cfg.HeartbeatBatchInterval)
	n.lessor = liveness.New(liveness.Config{Self: cfg.ID, BrokerExpiry: cfg.BrokerExpiry, ConnCloseGrace: cfg.ConnCloseGrace,
		HeartbeatBatchInterval: cfg.HeartbeatBatchInterval, ControllerHeartbeatTimeout: cfg.ControllerHeartbeatTimeout,
		Clock: clockOr(cfg.Clock), PauseGap: pauseGap(cfg), Registrations: f.Registrations, ReplicaGroups: f.ReplicaGroups, OtherVoters: func() int { return otherVoters(n.raft, cfg.ID) },
		ConnClosed: n.offices.connClosed})
	if err := n.start(ln); err != nil {
		n.closeResources()
		return nil, err
	}
	return n, nil
}

func (n *Node) start(ln net.Listener) error {
	var err error
	if n.mux, err = transport.NewMux(ln, n.cfg.ClusterAddr, n.pool.Dialer(), &n.stats.ClusterConnsRejected, n.logger); err != nil {
		return fmt.Errorf("cluster address %q: %w", n.cfg.ClusterAddr, err)
	}
	if n.cfg.withoutForwardLane {
		n.mux.Forward = nil
	}
	if n.stores, err = openStores(n.cfg); err != nil {
		return err
	}
	if n.admission, err = n.loadAdmission(); err != nil {
		return err
	}
	inner := n.cfg.Transport
	if inner == nil {
		nt := raft.NewNetworkTransportWithConfig(&raft.NetworkTransportConfig{
			Stream:  transport.PatientLayer{RaftLayer: transport.RaftLayer{ChanListener: n.mux.Raft, Dialer: n.pool.Dialer()}, Stop: n.shutdownCh},
			MaxPool: 3,
			Timeout: 10 * time.Second,
			Logger:  n.cfg.Logger.Named("raft-net"),
		})
		if n.cfg.PipelinedReplication {
			inner = transport.Pipelined{NetworkTransport: nt}
		} else {
			inner = transport.Unpipelined{NetworkTransport: nt}
		}
	}
	n.trans = transport.NewNoticed(inner, &n.stats.RaftAppendsSent, &n.stats.CommitNotices)
	// Raft's transport: the commit notices' wrapper, under the vote guard
	// of a member on disk (voteguard.go).
	raftTrans := n.trans.ForRaft()
	if n.stores.bolt != nil {
		raftTrans, n.guard = guardVotes(raftTrans, n.admission.voting, n.shutdownCh)
		n.goLoop(n.guard.run)
	}
	rc := n.cfg.raftConfig()
	notify := make(chan bool, 10)
	rc.NotifyCh = notify
	rc.Logger = n.cfg.Logger.Named("raft")
	form := formation{cfg: n.cfg, logger: n.logger, stores: n.stores, trans: raftTrans, admission: n.admission, status: n.memberStatus}
	if err := form.recoverFromPeersFile(rc, raftFSM{n.fsm}); err != nil {
		return err
	}
	if n.raft, err = raft.NewRaft(rc, raftFSM{n.fsm}, n.stores.logs, n.stores.stable, n.stores.snaps, raftTrans); err != nil {
		return fmt.Errorf("start raft: %w", err)
	}
	n.assemble(notify)
	if n.stores.bolt != nil {
		n.goLoop(func() { n.stores.bolt.RunMetrics(contextUntil(n.shutdownCh), boltMetricsInterval) })
	}
	n.goLoop(n.mux.Serve)
	n.goLoop(func() { serveRPC(n.mux.RPC, &rpcEndpoint{n: n}) })
	if n.mux.Forward != nil {
		n.goLoop(func() { transport.ServeConns(n.mux.Forward, n.forwards.ServeConn) })
	}
	decide, err := form.bootstrap(n.raft)
	if err != nil {
		return err
	}
	if decide {
		n.goLoop(func() { form.decideFormation(n.raft, n.shutdownCh) })
	}
	n.goLoop(func() { n.admission.watch(n.raft, n.fsm, n.shutdownCh) })
	n.runLoops(form)
	return nil
}

// assemble builds the parts that need the Raft node; notify is Raft's
// leadership signal.
func (n *Node) assemble(notify chan bool) {
	n.tenure = &tenure{raft: n.raft, logger: n.logger, notify: notify, again: make(chan chan struct{}),
		changes: &n.stats.LeaderChanges, shutdown: n.shutdownCh, serve: n.leaderLoop, demote: n.lessor.Demote,
		readyCh: make(chan struct{})}
	n.proposer = &proposer{raft: n.raft, fsm: n.fsm, office: n.tenure, lessor: n.lessor, stats: &n.stats,
		applyTimeout: n.cfg.ApplyTimeout, notice: commitNotice{n.trans.Notices},
		audit: n.audit, logger: n.logger}
	n.audit.replayed.Store(n.raft.LastIndex())
	n.audit.raft.Store(n.raft)
	n.expiry = liveness.NewExpirer(n.lessor, liveness.ExpiryConfig{ExpiryBatchMax: n.cfg.ExpiryBatchMax,
		MassExpiryFraction: n.cfg.MassExpiryFraction, ApplyTimeout: n.cfg.ApplyTimeout, Logger: n.logger,
		VerifyLeader: func() error { return n.raft.VerifyLeader().Error() }, InOffice: n.tenure.inOffice,
		Propose: n.proposer.apply, Expired: &n.stats.Expirations})
	n.readiness = &readinessMonitor{maxStale: n.cfg.MaxStale, logger: n.logger, raft: n.raft, fsm: n.fsm, logs: n.stores.logs,
		inOffice: n.tenure.inOffice, inConfig: func() bool { return inConfiguration(n.raft, n.cfg.ID) }, removed: n.Removed,
		stop: n.shutdownCh, now: make(chan chan struct{})}
	n.readiness.current.Store(&verdict{reason: "starting"})
	n.members = &membership{cfg: n.cfg, logger: n.logger, raft: n.raft, fsm: n.fsm,
		promotions: map[raft.ServerID]time.Time{}, propose: n.proposer.apply,
		probe: n.memberStatus, self: n.Status, removeViaLeader: n.RemovePeer,
		drains: newDrains(), drainRefusal: n.drainRefusal, record: n.recordLeaderAudit}
	n.formed = &formedVersionDuty{n: n}
	n.offices.register(n, "formed-cluster-version", n.formed)
}

// runLoops starts the loops every member runs for its lifetime.
func (n *Node) runLoops(form formation) {
	n.goLoop(n.tenure.monitor)
	n.goLoop(n.readiness.run)
	courier := &liveness.Courier{Lessor: n.lessor, Leader: func() string { return remoteLeader(n.raft) },
		Deliver: deliverBatch(n.pool, func() bool { ready, _ := n.Ready(); return ready }, func(commit []byte, ready []string) {
			n.readiness.noteLeaderCommit(commit)
			n.ready.noteReport(ready)
		}), Logger: n.logger}
	n.goLoop(func() { courier.Run(n.shutdownCh) })
	watch := &leaderWatch{raft: n.raft, lease: n.cfg.raftConfig().LeaderLeaseTimeout, detected: &n.stats.LeaderLossDetected,
		dial: func(addr string) (net.Conn, error) {
			return n.pool.Dialer().Dial(addr, transport.ProtoRPC, transport.DialTimeout)
		},
		logger: n.logger, stop: n.shutdownCh}
	n.goLoop(watch.run)
	hb := n.cfg.raftConfig().HeartbeatTimeout
	removal := &removalWatch{self: n.cfg.ID, raft: n.raft, grace: max(removedGraceMin, 5*hb), probe: n.memberStatus,
		removed: n.leaveAsRemoved, stop: n.shutdownCh}
	n.goLoop(removal.run)
	n.goLoop(func() { n.leaders.observe(n.raft, n.shutdownCh) })
	n.goLoop(func() { n.leaders.watchSilence(n.raft, n.shutdownCh) })
	if len(n.cfg.Join) > 0 {
		n.goLoop(func() { form.joinLoop(n.raft, n.pool, n.shutdownCh) })
	}
}

func (n *Node) goLoop(f func()) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		f()
	}()
}

// FSM returns the member's state machine.
func (n *Node) FSM() *fsm.FSM { return n.fsm }

// Stats returns the member's counters.
func (n *Node) Stats() *Stats { return &n.stats }

// ID returns the member's Raft ID.
func (n *Node) ID() string { return n.cfg.ID }

// Raft exposes the underlying Raft node for admin operations and tests.
func (n *Node) Raft() *raft.Raft { return n.raft }

// IsLeader reports whether this member is the Raft leader.
func (n *Node) IsLeader() bool { return n.raft.State() == raft.Leader }

// LeaderReady reports whether this member is a leader that has taken office.
func (n *Node) LeaderReady() bool { return n.tenure.inOffice() }

// Ready reports whether this member may serve client reads, and why not
// (docs/contributors/design.md, "Readiness"): it has heard from a leader, has applied what the
// leader had committed, is in the configuration, and its leader contact is
// fresher than MaxStale; a leader is ready once it has taken office. It is a
// single atomic load: every client read asks.
func (n *Node) Ready() (bool, string) {
	r := n.readiness.current.Load()
	return r.ready, r.reason
}

// Leader returns the leader's ID and cluster address, empty when unknown.
func (n *Node) Leader() (id, addr string) {
	a, i := n.raft.LeaderWithID()
	return string(i), string(a)
}

// Shutdown leaves gracefully: a leader hands leadership to another voter
// first (docs/contributors/design.md, "Membership"), then Raft stops and the ports close.
func (n *Node) Shutdown() error {
	var err error
	n.shutdownOnce.Do(func() {
		if n.raft != nil && n.IsLeader() && otherVoters(n.raft, n.cfg.ID) > 0 {
			if terr := n.raft.LeadershipTransfer().Error(); terr != nil {
				n.logger.Warn("leadership transfer before shutdown failed", "error", terr)
			} else {
				n.logger.Info("leadership transferred before shutdown")
			}
		}
		close(n.shutdownCh)
		n.tenure.leave()
		if n.raft != nil {
			err = n.raft.Shutdown().Error()
		}
		n.closeResources()
		n.wg.Wait()
	})
	return err
}

func (n *Node) closeResources() {
	n.pool.close()
	n.lanes.Close()
	if n.mux != nil {
		n.mux.Close()
	}
	if n.trans != nil && n.cfg.Transport == nil {
		n.trans.Close()
	}
	if n.stores != nil {
		if err := n.stores.close(); err != nil && !errors.Is(err, ErrShutdown) {
			n.logger.Warn("close raft log", "error", err)
		}
	}
}

// boltMetricsInterval is how often the log store reports its metrics.
const boltMetricsInterval = 10 * time.Second

// contextUntil returns a context cancelled when stop closes.
func contextUntil(stop <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-stop
		cancel()
	}()
	return ctx
}
