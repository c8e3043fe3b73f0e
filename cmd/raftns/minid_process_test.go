package main

import (
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// TestProcess_MinBrokerIDNoticeOnceAcrossLeaderChange: a group's master
// joins its slave, the slave is told once; the leader is then SIGKILLed, and
// the new leader, whose first rounds run before it handles another group's
// change (notices go out in broker-name order), does not tell the slave again.
func TestProcess_MinBrokerIDNoticeOnceAcrossLeaderChange(t *testing.T) {
	ps := startCluster(t, 3, "--notify-min-broker-id-changed", "true")
	leader := leaderOf(t, ps)
	follower := survivors(ps, leader)[0]
	c := newClient(t)
	ctx := ctxT(t, 2*time.Minute)
	acting := true
	register := func(name string, id int64, addr string) {
		t.Helper()
		reg := brokerRegistration("c1", name, addr, id, 1, "T-"+name)
		reg.EnableActingMaster = &acting
		if _, err := c.RegisterBroker(ctx, follower.ClientAddr, reg); err != nil {
			t.Fatalf("register %s/%d: %v", name, id, err)
		}
	}
	slaveB, slaveC := startFakeBroker(t), startFakeBroker(t)
	register("b", 1, slaveB.addr)
	register("b", 0, "127.0.0.1:1")
	poll.For(t, 20*time.Second, "the notice to b's slave", func() bool { return len(slaveB.notices()) == 1 })
	if n := slaveB.notices()[0]; n["minBrokerId"] != "0" || n["minBrokerAddr"] != "127.0.0.1:1" {
		t.Fatalf("notice = %v", n)
	}

	leader.Kill()
	rest := survivors(ps, leader)
	newLeader := leaderOf(t, rest)
	follower = survivors(rest, newLeader)[0]
	register("c", 1, slaveC.addr)
	register("c", 0, "127.0.0.1:2")
	poll.For(t, 30*time.Second, "the notice to c's slave from the new leader", func() bool { return len(slaveC.notices()) == 1 })
	if n := len(slaveB.notices()); n != 1 {
		t.Fatalf("b's slave was told %d times: %v", n, slaveB.notices())
	}
}
