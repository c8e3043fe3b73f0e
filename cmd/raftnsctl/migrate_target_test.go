package main

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/raftns/raftns/protocol/remoting"
)

// referenceConfig is what a reference NameServer answers to
// GET_NAMESRV_CONFIG: its NamesrvConfig and NettyServerConfig fields.
const referenceConfig = "rocketmqHome=/opt/rocketmq\nkvConfigPath=/root/namesrv/kvConfig.json\n" +
	"configStorePath=/root/namesrv/namesrv.properties\norderMessageEnable=false\nlistenPort=9876\n" +
	"serverWorkerThreads=8\nclusterTest=false\n"

// fakeReference serves GET_NAMESRV_CONFIG as a reference NameServer does,
// and any other request with an empty success, until the test ends.
func fakeReference(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := remoting.NewServer(remoting.ServerConfig{}, remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			resp := remoting.NewResponse(req, remoting.Success, "")
			if req.Code == remoting.GetNamesrvConfig {
				resp.Body = []byte(referenceConfig)
			}
			return resp
		}), hclog.NewNullLogger())
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// migrate --to pointed at a reference NameServer is refused before
// anything is read or written; a RaftNS member passes the same check.
func TestMigrateTo_MustBeARaftNSMember(t *testing.T) {
	ref := fakeReference(t)
	for _, sub := range []string{"verify", "import"} {
		r := ctl(t, "migrate", sub, "--from", member.ClientAddr, "--to", ref).
			mustFail(t, 1, "migrate "+sub+": --to "+ref+" is not a RaftNS member")
		if r.stdout != "" {
			t.Errorf("migrate %s printed %q before refusing", sub, r.stdout)
		}
	}
	// A rollback writes to an old name server on purpose.
	// (The fake answers nothing else, so reading it fails after the check.)
	r := ctl(t, "migrate", "verify", "--from", member.ClientAddr, "--to", ref, "--to-reference").mustFail(t, 1, "name server "+ref)
	if strings.Contains(r.stderr, "not a RaftNS member") {
		t.Errorf("--to-reference still checked the target: %s", r.stderr)
	}
	old := startMember(t)
	ctl(t, "migrate", "import", "--from", old.ClientAddr, "--to", member.ClientAddr, "--dry-run").mustSucceed(t)
}
