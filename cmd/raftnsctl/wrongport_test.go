package main

import (
	"strings"
	"testing"
)

// --namesrv given a member's admin HTTP port says so, instead of a frame
// length decoded from "HTTP".
func TestNamesrv_AdminPortGetsAHint(t *testing.T) {
	r := ctl(t, "--namesrv", member.HTTPAddr, "topics").mustFail(t, 1, "it answered with HTTP")
	if !strings.Contains(r.stderr, "admin port") || strings.Contains(r.stderr, "frame") {
		t.Fatalf("stderr = %q, want the admin-port hint and no frame length", r.stderr)
	}
}

// --addr given a member's RocketMQ client port says so.
func TestAddr_ClientPortGetsAHint(t *testing.T) {
	r := ctl(t, "--addr", member.ClientAddr, "status").mustFail(t, 1, "RocketMQ client port")
	if !strings.Contains(r.stderr, "--addr") || !strings.Contains(r.stderr, member.ClientAddr) {
		t.Fatalf("stderr = %q, want it to name --addr and %s", r.stderr, member.ClientAddr)
	}
}

// --namesrv takes a namesrvAddr list and, like mqadmin, NAMESRV_ADDR.
func TestNamesrv_ListAndNamesrvAddrEnvironment(t *testing.T) {
	dead := closedPort(t)
	ctl(t, "-n", dead+";"+member.ClientAddr, "topics").mustSucceed(t)
	ctlEnv(t, map[string]string{"NAMESRV_ADDR": dead + ";" + member.ClientAddr}, "topics").mustSucceed(t)
	// RAFTNS_NAMESRV comes first, then NAMESRV_ADDR.
	ctlEnv(t, map[string]string{"RAFTNS_NAMESRV": member.ClientAddr, "NAMESRV_ADDR": dead}, "topics").mustSucceed(t)
	ctlEnv(t, map[string]string{"RAFTNS_NAMESRV": dead, "NAMESRV_ADDR": member.ClientAddr}, "topics").mustFail(t, 1, dead)
	ctl(t, "-n", "10.0.0.1:9876;nonsense", "topics").mustFail(t, 2, `"nonsense": want HOST:PORT`)
	ctl(t, "-n", " ; ", "topics").mustFail(t, 2, "want HOST:PORT")
}
