package cluster

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
)

// testCluster runs members in-process: Raft over raft.InmemTransport (so
// faults can be injected), internal RPCs over real TCP on 127.0.0.1. Each
// member's in-memory transport address is its TCP cluster address, so one
// address names a member for both.
type testCluster struct {
	t       *testing.T
	mu      sync.Mutex
	members map[string]*testMember
	tune    func(*Config)
	// isolated holds the cluster addresses of partitioned members.
	isolated map[string]bool
}

// testMember keeps what survives a member's restart: its stores.
type testMember struct {
	id     string
	addr   string
	ln     net.Listener
	trans  *raft.InmemTransport
	logs   *raft.InmemStore
	snaps  raft.SnapshotStore
	node   *Node
	closed bool
}

// fastRaftConfig is Raft with half the library's LAN timers: short enough
// for tests that lose a leader, long enough that a leader or follower
// starved for a few dozen milliseconds under the race detector on a loaded
// machine does not step down or start an election in a test about
// something else.
func fastRaftConfig() *raft.Config {
	rc := raft.DefaultConfig()
	rc.HeartbeatTimeout = 500 * time.Millisecond
	rc.ElectionTimeout = 500 * time.Millisecond
	rc.LeaderLeaseTimeout = 500 * time.Millisecond
	rc.CommitTimeout = 5 * time.Millisecond
	rc.ShutdownOnRemove = false
	return rc
}

// newTestCluster starts n voters with the same peer list. tune adjusts each
// member's config before start.
func newTestCluster(t *testing.T, n int, tune func(*Config)) *testCluster {
	t.Helper()
	tc := &testCluster{t: t, members: map[string]*testMember{}, tune: tune, isolated: map[string]bool{}}
	var peers []Peer
	var ms []*testMember
	for i := 1; i <= n; i++ {
		m := tc.newMember(fmt.Sprintf("n%d", i))
		peers = append(peers, Peer{ID: m.id, Addr: m.addr})
		ms = append(ms, m)
	}
	for _, m := range ms {
		tc.start(m, func(c *Config) { c.Peers = peers })
	}
	t.Cleanup(tc.shutdown)
	tc.waitLeaderReady()
	return tc
}

func (tc *testCluster) newMember(id string) *testMember {
	tc.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tc.t.Fatal(err)
	}
	// raft's file snapshot store: its in-memory one lets a leader read a
	// snapshot that is still being written (a data race in raft v1.8.0).
	snaps, err := raft.NewFileSnapshotStoreWithLogger(tc.t.TempDir(), 2, hclog.NewNullLogger())
	if err != nil {
		tc.t.Fatal(err)
	}
	m := &testMember{id: id, addr: ln.Addr().String(), ln: ln, logs: raft.NewInmemStore(), snaps: snaps, closed: true}
	tc.mu.Lock()
	tc.members[id] = m
	tc.mu.Unlock()
	return m
}

// start (re)starts m with fresh Raft transport and FSM on its kept stores.
func (tc *testCluster) start(m *testMember, extra func(*Config)) {
	tc.t.Helper()
	if m.ln == nil {
		ln, err := net.Listen("tcp", m.addr)
		if err != nil {
			tc.t.Fatalf("rebind %s: %v", m.addr, err)
		}
		m.ln = ln
	}
	_, m.trans = raft.NewInmemTransport(raft.ServerAddress(m.addr))
	cfg := DefaultConfig()
	cfg.ID, cfg.ClusterAddr, cfg.ClientAddr = m.id, m.addr, "client-"+m.id
	cfg.RaftConfig = fastRaftConfig()
	cfg.Transport, cfg.LogStore, cfg.StableStore, cfg.SnapshotStore = m.trans, m.logs, m.logs, m.snaps
	cfg.BrokerExpiry = 2 * time.Second
	cfg.ScanInterval = 100 * time.Millisecond
	cfg.ConnCloseGrace = 300 * time.Millisecond
	cfg.HeartbeatBatchInterval = 50 * time.Millisecond
	cfg.MaxStale = time.Second
	cfg.ForwardHold = 3 * time.Second
	cfg.ApplyTimeout = 3 * time.Second
	cfg.PromoteAfter = 300 * time.Millisecond
	from := m.addr
	cfg.linkDown = func(to string) bool { return tc.cut(from, to) }
	cfg.Logger = hclog.New(&hclog.LoggerOptions{Name: m.id, Level: hclog.Warn, Output: testWriter{tc.t}})
	if extra != nil {
		extra(cfg)
	}
	if tc.tune != nil {
		tc.tune(cfg)
	}
	node, err := New(cfg, fsm.New(cfg.Logger), m.ln)
	if err != nil {
		tc.t.Fatalf("start %s: %v", m.id, err)
	}
	m.node, m.closed = node, false
	tc.connectAll()
}

// connectAll wires every running member's transport to every other and
// heals every partition.
func (tc *testCluster) connectAll() {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	clear(tc.isolated)
	for _, a := range tc.members {
		for _, b := range tc.members {
			if a != b && a.trans != nil && b.trans != nil {
				a.trans.Connect(raft.ServerAddress(b.addr), b.trans)
			}
		}
	}
}

// partition cuts all traffic between m and every other member: Raft, and
// the cluster RPCs (forwarded writes, membership, heartbeat batches, status
// probes).
func (tc *testCluster) partition(m *testMember) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	tc.isolated[m.addr] = true
	m.trans.DisconnectAll()
	for _, o := range tc.members {
		if o != m && o.trans != nil {
			o.trans.Disconnect(raft.ServerAddress(m.addr))
		}
	}
}

// cut reports whether the link between the members at two cluster
// addresses is cut.
func (tc *testCluster) cut(from, to string) bool {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return from != to && (tc.isolated[from] || tc.isolated[to])
}

// stop shuts a member down, keeping its stores for a restart.
func (tc *testCluster) stop(m *testMember) {
	tc.t.Helper()
	if m.closed {
		return
	}
	if err := m.node.Shutdown(); err != nil {
		tc.t.Logf("shutdown %s: %v", m.id, err)
	}
	tc.mu.Lock()
	for _, o := range tc.members {
		if o != m && o.trans != nil {
			o.trans.Disconnect(raft.ServerAddress(m.addr))
		}
	}
	m.trans, m.ln, m.closed = nil, nil, true
	tc.mu.Unlock()
}

func (tc *testCluster) shutdown() {
	for _, m := range tc.running() {
		tc.stop(m)
	}
}

func (tc *testCluster) running() []*testMember {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	var out []*testMember
	for _, id := range sortedIDs(tc.members) {
		if m := tc.members[id]; !m.closed {
			out = append(out, m)
		}
	}
	return out
}

func sortedIDs(ms map[string]*testMember) []string {
	var ids []string
	for id := range ms {
		ids = append(ids, id)
	}
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			if ids[j] < ids[i] {
				ids[i], ids[j] = ids[j], ids[i]
			}
		}
	}
	return ids
}

// waitLeaderReady returns the ready leader among running members.
func (tc *testCluster) waitLeaderReady() *testMember {
	tc.t.Helper()
	var leader *testMember
	poll.For(tc.t, 10*time.Second, "a ready leader", func() bool {
		for _, m := range tc.running() {
			if m.node.LeaderReady() {
				leader = m
				return true
			}
		}
		return false
	})
	return leader
}

// waitRelease waits until every running member applied this release's
// cluster version, which the leader of a new cluster raises in an entry of
// its own once every member answers.
func (tc *testCluster) waitRelease() {
	tc.t.Helper()
	poll.For(tc.t, 30*time.Second, "every member at cluster version "+buildinfo.Release, func() bool {
		for _, m := range tc.running() {
			if m.node.FSM().ClusterVersion().String() != buildinfo.Release {
				return false
			}
		}
		return true
	})
}

func (tc *testCluster) followers() []*testMember {
	var out []*testMember
	for _, m := range tc.running() {
		if !m.node.IsLeader() {
			out = append(out, m)
		}
	}
	return out
}

// waitApplied waits until every running member applied index: Raft has
// applied it, and the FSM the last entry up to it that reaches the FSM
// (barriers and no-ops do not).
func (tc *testCluster) waitApplied(index uint64) {
	tc.t.Helper()
	poll.For(tc.t, 10*time.Second, fmt.Sprintf("every member at index %d", index), func() bool {
		for _, m := range tc.running() {
			if m.node.Raft().AppliedIndex() < index ||
				m.node.FSM().AppliedIndex() < lastFSMEntryAtOrBelow(m.node.stores.logs, index) {
				return false
			}
		}
		return true
	})
}

// commandsAfter counts the command entries in m's log after index: the
// writes, leaving out the barriers and no-ops Raft and the leader append.
func commandsAfter(m *testMember, index uint64) int {
	last, _ := m.logs.LastIndex()
	n := 0
	for i := index + 1; i <= last; i++ {
		var l raft.Log
		if m.logs.GetLog(i, &l) == nil && l.Type == raft.LogCommand {
			n++
		}
	}
	return n
}

// waitSame waits until every running member has the same state digest.
func (tc *testCluster) waitSame() {
	tc.t.Helper()
	poll.For(tc.t, 10*time.Second, "equal state on every member", func() bool {
		ms := tc.running()
		for _, m := range ms[1:] {
			if m.node.FSM().Digest() != ms[0].node.FSM().Digest() {
				return false
			}
		}
		return true
	})
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

// registration builds a broker registration with one topic per broker.
func registration(cluster, name, addr string, id int64, counter int64) *state.RegisterBroker {
	return &state.RegisterBroker{
		ClusterName: cluster, BrokerName: name, BrokerAddr: addr, BrokerID: id,
		HaServerAddr:          addr + "-ha",
		HasEnableActingMaster: true,
		HasFilterServerList:   true,
		DataVersion:           state.DataVersion{Timestamp: 1700000000000, Counter: counter},
		TopicConfigs: []state.TopicConfig{
			{TopicName: "T-" + name, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6},
			{TopicName: "Shared", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6},
		},
	}
}

// register registers cmd through m and waits, as a client read on m would,
// until m's state shows it.
func register(t *testing.T, m *testMember, cmd *state.RegisterBroker) state.RegisterResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := m.node.Register(ctx, cmd)
	if err == nil {
		err = m.node.AwaitVisible(ctx)
	}
	if err != nil {
		t.Fatalf("register %s via %s: %v", cmd.BrokerAddr, m.id, err)
	}
	return res
}

func registered(m *testMember, cmd *state.RegisterBroker) bool {
	_, ok := m.node.FSM().Registration(cmd.Key())
	return ok
}
