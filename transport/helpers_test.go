package transport

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport/nsclient"
	"github.com/raftns/raftns/transport/remoting"
)

// testServer is one ready single-member RaftNS (Raft in memory) serving the
// NameServer protocol on 127.0.0.1.
type testServer struct {
	node   *cluster.Node
	srv    *Server
	addr   string
	client *nsclient.Client
}

func startTestServer(t *testing.T, tune func(*Config)) *testServer {
	t.Helper()
	logger := hclog.New(&hclog.LoggerOptions{Level: hclog.Warn, Output: testLogWriter{t}})
	clusterLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr, trans := raft.NewInmemTransport(raft.ServerAddress(clusterLn.Addr().String()))
	store := raft.NewInmemStore()
	ccfg := cluster.DefaultConfig()
	ccfg.ID, ccfg.ClusterAddr, ccfg.Logger = "solo", string(addr), logger
	ccfg.Transport, ccfg.LogStore, ccfg.StableStore, ccfg.SnapshotStore = trans, store, store, raft.NewInmemSnapshotStore()
	rc := raft.DefaultConfig()
	rc.HeartbeatTimeout, rc.ElectionTimeout, rc.LeaderLeaseTimeout = 50*time.Millisecond, 50*time.Millisecond, 50*time.Millisecond
	ccfg.RaftConfig = rc
	node, err := cluster.New(ccfg, fsm.New(logger), clusterLn)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Logger = logger
	cfg.Settings = NewSettings(map[string]string{PropOrderMessageEnable: "false", PropConfigBlackList: "configBlackList;configStorePath;kvConfigPath", "listenPort": "9876"}, nil, "dataDir")
	if tune != nil {
		tune(&cfg)
	}
	srv := New(cfg, node)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	ts := &testServer{node: node, srv: srv, addr: ln.Addr().String(), client: nsclient.New(remoting.ClientConfig{})}
	t.Cleanup(func() {
		ts.client.Close()
		srv.Close()
		node.Shutdown()
	})
	deadline := time.Now().Add(10 * time.Second)
	// Ready, with the member directory published: the leader's own
	// housekeeping writes it once, and tests compare state digests.
	for ready, _ := node.Ready(); !ready || len(node.FSM().Members()) == 0; ready, _ = node.Ready() {
		if time.Now().After(deadline) {
			t.Fatal("single member never became ready")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return ts
}

// call sends one request and returns the raw response.
func (ts *testServer) call(t *testing.T, req *remoting.Command) *remoting.Command {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if req.Language == "" {
		req.Language = "JAVA"
	}
	resp, err := ts.client.Remoting().Invoke(ctx, ts.addr, req)
	if err != nil {
		t.Fatalf("request %d: %v", req.Code, err)
	}
	return resp
}

func req(code int32, version int32, ext map[string]string, body []byte) *remoting.Command {
	return &remoting.Command{Code: code, Version: version, ExtFields: ext, Body: body}
}

type testLogWriter struct{ t *testing.T }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
