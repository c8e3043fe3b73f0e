package cluster

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/internal/poll"
)

// roleLog records the role-change notices each member sent.
type roleLog struct {
	mu   sync.Mutex
	sent map[string][]fsm.ReplicaGroup
}

func (l *roleLog) hook(id string) func(fsm.ReplicaGroup) {
	return func(g fsm.ReplicaGroup) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.sent[id] = append(l.sent[id], g)
	}
}

func (l *roleLog) all() map[string][]fsm.ReplicaGroup {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string][]fsm.ReplicaGroup{}
	for k, v := range l.sent {
		out[k] = append([]fsm.ReplicaGroup(nil), v...)
	}
	return out
}

var (
	ctlMaster = fsm.BrokerKey{Cluster: "c", Addr: "10.0.0.1:10911"}
	ctlSlave  = fsm.BrokerKey{Cluster: "c", Addr: "10.0.0.2:10911"}
)

// controllerCluster starts three members with a broker group whose master
// (id 1) and slave (id 2) are both in the SyncStateSet and hold a
// connection to every member.
func controllerCluster(t *testing.T) (*testCluster, *roleLog) {
	t.Helper()
	tc := newTestCluster(t, 3, nil)
	log := &roleLog{sent: map[string][]fsm.ReplicaGroup{}}
	for _, m := range tc.running() {
		m.node.SetRoleChangeNotifier(log.hook(m.id))
	}
	leader := tc.waitLeaderReady()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, c := range []struct {
		t   fsm.CommandType
		cmd any
	}{
		{fsm.ApplyBrokerIDType, &fsm.ApplyBrokerID{ClusterName: "c", BrokerName: "b", BrokerID: 1, Addr: ctlMaster.Addr, CheckCode: "1"}},
		{fsm.ApplyBrokerIDType, &fsm.ApplyBrokerID{ClusterName: "c", BrokerName: "b", BrokerID: 2, Addr: ctlSlave.Addr, CheckCode: "2"}},
		{fsm.ElectMasterType, &fsm.ElectMaster{BrokerName: "b", HasNewMaster: true, NewMasterID: 1}},
		{fsm.AlterSyncStateSetType, &fsm.AlterSyncStateSet{BrokerName: "b", MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 1, NewSyncStateSet: []int64{1, 2}}},
	} {
		if res, err := leader.node.ProposeController(ctx, c.t, c.cmd); err != nil || res.Refusal != fsm.RefusalNone {
			t.Fatalf("%s: %+v, %v", c.t, res, err)
		}
	}
	tc.waitApplied(leader.node.FSM().AppliedIndex())
	for _, m := range tc.running() {
		for _, k := range []fsm.BrokerKey{ctlMaster, ctlSlave} {
			m.node.BrokerConnected(k)
		}
	}
	return tc, log
}

func heartbeatSlave(m *testMember) {
	m.node.HeardReplica(ControllerHeartbeat{Key: ReplicaKey{"c", "b", 2}, Addr: ctlSlave.Addr, Epoch: 1, MaxOffset: 10})
}

func group(t *testing.T, m *testMember) fsm.ReplicaGroup {
	t.Helper()
	g, ok := m.node.FSM().ReplicaGroup("b")
	if !ok {
		t.Fatal("group b missing")
	}
	return g
}

func TestController_ALeaderChangeAloneElectsNobody(t *testing.T) {
	tc, log := controllerCluster(t)
	old := tc.waitLeaderReady()
	tc.stop(old)
	leader := tc.waitLeaderReady()
	poll.For(t, 5*time.Second, "the new leader's reports settle", func() bool {
		return time.Now().After(leader.node.lessor.ReplicasSettleAt())
	})
	// Every member still holds both brokers' connections: nothing is due.
	leader.node.scanMasters()
	if g := group(t, leader); g.MasterID != 1 || g.MasterEpoch != 1 {
		t.Fatalf("a change of leader elected: %+v", g)
	}
	if sent := log.all(); len(sent) != 0 {
		t.Fatalf("notices sent without an election: %+v", sent)
	}
}

func TestController_LeaderDiesWithTheMaster(t *testing.T) {
	tc, log := controllerCluster(t)
	old := tc.waitLeaderReady()
	// The master broker dies: every member sees its connection close; the
	// leader dies at the same moment, before it decided anything.
	for _, m := range tc.followers() {
		m.node.BrokerDisconnected(ctlMaster)
		heartbeatSlave(m)
	}
	tc.stop(old)
	start := time.Now()
	var leader *testMember
	poll.For(t, 10*time.Second, "the slave elected by the new leader", func() bool {
		for _, m := range tc.running() {
			heartbeatSlave(m)
			if g := group(t, m); g.HasMaster && g.MasterID == 2 {
				leader = m
				return true
			}
		}
		return false
	})
	t.Logf("elected %v after the leader and the master died (heartbeat timeout %v)", time.Since(start), DefaultConfig().ControllerHeartbeatTimeout)
	if time.Since(start) >= DefaultConfig().ControllerHeartbeatTimeout {
		t.Fatal("the new leader waited out the heartbeat timeout")
	}
	if g := group(t, leader); g.MasterEpoch != 2 || len(g.SyncStateSet) != 1 || g.SyncStateSet[0] != 2 {
		t.Fatalf("after the election: %+v", g)
	}
	poll.For(t, 5*time.Second, "one notice from the new leader", func() bool {
		sent := log.all()
		return len(sent) == 1 && len(sent[leader.id]) == 1 && sent[leader.id][0].MasterID == 2
	})
	if !leader.node.IsLeader() {
		t.Fatal("the member that elected is not the leader")
	}
}
