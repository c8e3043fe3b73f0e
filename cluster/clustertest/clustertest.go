// Package clustertest starts in-process RaftNS members for tests of the
// packages above cluster: Raft over an in-memory transport and store,
// internal RPCs over TCP on 127.0.0.1.
package clustertest

import (
	"net"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
)

// Logger returns an hclog logger writing to t.Log at warn level.
func Logger(t testing.TB) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Level: hclog.Warn, Output: logWriter{t}})
}

// Single starts a one-member cluster and waits until it is ready with its
// member directory published (the leader writes it once on taking office,
// and tests compare state digests). tune may adjust the config. The member
// is shut down when the test ends.
func Single(t testing.TB, tune func(*cluster.Config)) *cluster.Node {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr, trans := raft.NewInmemTransport(raft.ServerAddress(ln.Addr().String()))
	node := start(t, ln, trans, singleRaftTimer, func(cfg *cluster.Config) {
		cfg.ID, cfg.ClusterAddr, cfg.ClientAddr = "solo", string(addr), "127.0.0.1:9876"
		if tune != nil {
			tune(cfg)
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for ready, _ := node.Ready(); !ready || len(node.FSM().Members()) == 0; ready, _ = node.Ready() {
		if time.Now().After(deadline) {
			t.Fatal("single member never became ready")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return node
}

// Raft heartbeat, election and leader-lease timeouts of the members. A
// lone voter cannot lose its quorum: short timers only hasten its first
// election. Several members get half the library's LAN timers: short
// enough for tests that lose a leader, long enough that a follower or a
// leader starved for a few dozen milliseconds under the race detector on
// a loaded machine does not start an election or step down in a test
// about something else.
const (
	singleRaftTimer  = 50 * time.Millisecond
	membersRaftTimer = 500 * time.Millisecond
)

// start starts a member on ln with Raft over trans and in-memory stores,
// Raft's heartbeat, election and leader-lease timeouts at timer, and tune's
// config; it is shut down when the test ends.
func start(t testing.TB, ln net.Listener, trans *raft.InmemTransport, timer time.Duration, tune func(*cluster.Config)) *cluster.Node {
	t.Helper()
	logger := Logger(t)
	store := raft.NewInmemStore()
	cfg := cluster.DefaultConfig()
	cfg.Logger = logger
	cfg.Transport, cfg.LogStore, cfg.StableStore, cfg.SnapshotStore = trans, store, store, raft.NewInmemSnapshotStore()
	rc := raft.DefaultConfig()
	rc.HeartbeatTimeout, rc.ElectionTimeout, rc.LeaderLeaseTimeout = timer, timer, timer
	cfg.RaftConfig = rc
	tune(cfg)
	node, err := cluster.New(cfg, fsm.New(logger), ln)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Shutdown() })
	return node
}

type logWriter struct{ t testing.TB }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
