package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// controllerBroker plays a controller-mode broker against the real member:
// it applies for id 1 of group name, registers and heartbeats on one
// connection, which stays open (the broker stays alive) until the test ends.
func controllerBroker(t *testing.T, name, addr string) *nsclient.Client {
	t.Helper()
	c := nsclient.New(remoting.ClientConfig{RequestTimeout: 10 * time.Second})
	t.Cleanup(func() { c.Close() })
	call := func(code int32, ext map[string]string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := c.Invoke(ctx, member.ClientAddr, &remoting.Command{Code: code, Language: "JAVA", ExtFields: ext}); err != nil {
			t.Fatalf("request %d: %v", code, err)
		}
	}
	group := map[string]string{"clusterName": "CtlCluster", "brokerName": name}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range group {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	call(remoting.ControllerApplyBrokerID, with("appliedBrokerId", "1", "registerCheckCode", addr+";1"))
	call(remoting.ControllerRegisterBroker, with("brokerId", "1", "brokerAddress", addr))
	call(remoting.BrokerHeartbeat, with("brokerId", "1", "brokerAddr", addr, "epoch", "0", "maxOffset", "0"))
	call(remoting.ControllerElectMaster, with("brokerId", "1"))
	return c
}

func TestController_ShowsAndSteersAGroup(t *testing.T) {
	controllerBroker(t, "ctl-a", "127.0.0.1:30911")

	r := memberCtl(t, "controller", "metadata").mustSucceed(t)
	if !strings.Contains(r.stdout, "Leader:         ") || !strings.Contains(r.stdout, member.ClientAddr) {
		t.Fatalf("metadata:\n%s", r.stdout)
	}
	r = memberCtl(t, "controller", "sync-state-set", "ctl-a", "ctl-none").mustSucceed(t)
	want := `BROKER    MASTER           MASTER EPOCH  SYNC EPOCH  ID  ADDRESS                  IN SYNC  ALIVE
ctl-a     127.0.0.1:30911  1             1           1   127.0.0.1:30911          yes      yes
ctl-none  -                -             -           -   (not in the controller)  -        -
`
	if r.stdout != want {
		t.Fatalf("sync-state-set:\n%s\nwant:\n%s", r.stdout, want)
	}
	r = memberCtl(t, "controller", "broker-epoch", "ctl-a").mustSucceed(t)
	if !strings.Contains(r.stdout, "Master:             1 127.0.0.1:30911\nMaster epoch:       1\nSyncStateSet:       [1]\nSyncStateSet epoch: 1") {
		t.Fatalf("broker-epoch:\n%s", r.stdout)
	}
	r = memberCtl(t, "controller", "elect", "ctl-a", "1", "--cluster", "CtlCluster")
	if r.code != 1 || !strings.Contains(r.stderr, "code 2011") {
		t.Fatalf("electing the current master: exit %d, stderr %s", r.code, r.stderr)
	}
	memberCtl(t, "controller", "clean", "ctl-a").mustFail(t, 1, "still alive")
	memberCtl(t, "controller", "clean", "ctl-a", "--clean-living").mustSucceed(t)
	memberCtl(t, "controller", "broker-epoch", "ctl-a").mustFail(t, 1, "code 2008")
	memberCtl(t, "controller", "elect", "ctl-a", "x").mustFail(t, 2, "want an integer")
}
