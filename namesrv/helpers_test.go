package namesrv

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
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
	node := clustertest.Single(t, nil)
	cfg := DefaultConfig()
	cfg.Logger = clustertest.Logger(t)
	cfg.Settings = NewSettings(map[string]string{PropOrderMessageEnable: "false", PropConfigBlackList: "configBlackList;configStorePath;kvConfigPath", "listenPort": "9876", PropEnableTopicList: "true", PropEnableAllTopicList: "true"}, nil, "dataDir")
	if tune != nil {
		tune(&cfg)
	}
	srv := New(cfg, node)
	ln := listen(t)
	go srv.Serve(ln)
	ts := &testServer{node: node, srv: srv, addr: ln.Addr().String(), client: nsclient.New(remoting.ClientConfig{})}
	t.Cleanup(func() {
		ts.client.Close()
		srv.Close()
	})
	poll.For(t, 10*time.Second, "the cluster version of this release", func() bool {
		return node.FSM().ClusterVersion() == buildinfo.Current()
	})
	waitSettingsSeeded(t, srv)
	return ts
}

// waitSettingsSeeded waits until the cluster holds the server's run-time
// settings, when its cluster version has it hold them: the leader's seed
// is a log entry that tests counting entries must not meet later.
func waitSettingsSeeded(t *testing.T, srv *Server) {
	t.Helper()
	if !srv.sharedSettings() {
		return
	}
	poll.For(t, 10*time.Second, "the cluster holding the settings", func() bool {
		return srv.cfg.Settings.ClusterHeld() && (srv.ctrl == nil || srv.ctrl.settings.ClusterHeld())
	})
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

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}
