package cluster

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"github.com/raftns/raftns/transport"
	"net"
	"net/rpc"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/transport/tlstest"
)

// A TLS member runs Raft over the real NetworkTransport on its cluster port
// (not raft.InmemTransport as in harness_test.go), so Raft traffic and the
// internal RPCs both cross the mux and its TLS handshake. Its log is in
// memory.

// listenLoopback opens a cluster listener on a free loopback port.
func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// loadTestTLS loads files as a member would.
func loadTestTLS(t *testing.T, f tlstest.Files) *tls.Config {
	t.Helper()
	c, err := LoadTLS(f.CertFile, f.KeyFile, f.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// startNetMember starts member id on ln with tlsConf (nil: plain TCP); tune
// sets peers or join. It is shut down when the test ends.
func startNetMember(t *testing.T, id string, ln net.Listener, tlsConf *tls.Config, tune func(*Config)) *testMember {
	t.Helper()
	snaps, err := raft.NewFileSnapshotStoreWithLogger(t.TempDir(), 2, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	logs := raft.NewInmemStore()
	cfg := DefaultConfig()
	cfg.ID, cfg.ClusterAddr, cfg.ClientAddr = id, ln.Addr().String(), "client-"+id
	cfg.TLS = tlsConf
	cfg.RaftConfig = fastRaftConfig()
	cfg.LogStore, cfg.StableStore, cfg.SnapshotStore = logs, logs, snaps
	cfg.HeartbeatBatchInterval = 50 * time.Millisecond
	cfg.ForwardHold, cfg.ApplyTimeout = 3*time.Second, 3*time.Second
	cfg.PromoteAfter = 300 * time.Millisecond
	cfg.Logger = hclog.New(&hclog.LoggerOptions{Name: id, Level: hclog.Warn, Output: testWriter{t}})
	if tune != nil {
		tune(cfg)
	}
	node, err := New(cfg, fsm.New(cfg.Logger), ln)
	if err != nil {
		t.Fatalf("start %s: %v", id, err)
	}
	t.Cleanup(func() { node.Shutdown() })
	return &testMember{id: id, addr: cfg.ClusterAddr, ln: ln, logs: logs, snaps: snaps, node: node}
}

// startTLSCluster starts n voters with the same peer list, each with its own
// certificate from ca, and returns them once one leads and is ready.
func startTLSCluster(t *testing.T, ca *tlstest.CA, n int) []*testMember {
	t.Helper()
	dir := t.TempDir()
	var lns []net.Listener
	var peers []Peer
	for i := 1; i <= n; i++ {
		ln := listenLoopback(t)
		lns = append(lns, ln)
		peers = append(peers, Peer{ID: fmt.Sprintf("n%d", i), Addr: ln.Addr().String()})
	}
	var ms []*testMember
	for i, p := range peers {
		tlsConf := loadTestTLS(t, ca.Issue(t, dir, p.ID))
		ms = append(ms, startNetMember(t, p.ID, lns[i], tlsConf, func(c *Config) { c.Peers = peers }))
	}
	waitNetLeader(t, ms)
	return ms
}

// waitNetLeader returns the ready leader among ms.
func waitNetLeader(t *testing.T, ms []*testMember) *testMember {
	t.Helper()
	var leader *testMember
	poll.For(t, 15*time.Second, "a ready leader", func() bool {
		for _, m := range ms {
			if m.node.LeaderReady() {
				leader = m
				return true
			}
		}
		return false
	})
	return leader
}

// configuredIDs returns the IDs in m's latest Raft configuration.
func configuredIDs(t *testing.T, m *testMember) map[string]bool {
	t.Helper()
	fut := m.node.Raft().GetConfiguration()
	if err := fut.Error(); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, s := range fut.Configuration().Servers {
		ids[string(s.ID)] = true
	}
	return ids
}

// rawRPCClient connects to a cluster port as an outsider would: over TLS
// with tlsConf, or plain TCP when it is nil, then selects the RPC protocol.
// The TLS handshake runs on the first write; with TLS 1.3 a client learns
// that the server refused its certificate only when it next reads.
func rawRPCClient(t *testing.T, addr string, tlsConf *tls.Config) *rpc.Client {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// The deadline turns a hang into a failed call.
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if tlsConf != nil {
		conn = tls.Client(conn, tlsConf)
	}
	// A refused handshake shows up here or in the call; the call is what
	// the tests assert on.
	_, _ = conn.Write([]byte{transport.ProtoRPC})
	c := rpc.NewClient(conn)
	t.Cleanup(func() { c.Close() })
	return c
}

// logTail keeps what a member logged, for tests that assert on a warning.
type logTail struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
