package controller

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// roleLog records the role-change notices each member sent.
type roleLog struct {
	mu   sync.Mutex
	sent map[string][]state.ReplicaGroup
}

func (l *roleLog) hook(id string) func(RoleChange) {
	return func(rc RoleChange) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.sent[id] = append(l.sent[id], rc.Group)
	}
}

func (l *roleLog) all() map[string][]state.ReplicaGroup {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string][]state.ReplicaGroup{}
	for k, v := range l.sent {
		out[k] = append([]state.ReplicaGroup(nil), v...)
	}
	return out
}

var (
	ctlMaster = state.BrokerKey{Cluster: "c", Addr: "10.0.0.1:10911"}
	ctlSlave  = state.BrokerKey{Cluster: "c", Addr: "10.0.0.2:10911"}
)

// ctlCluster is three members, each with its controller.
type ctlCluster struct {
	*clustertest.Members
	ctl map[string]*Controller
}

// controllerCluster starts three members with a broker group whose master
// (id 1) and slave (id 2) are both in the SyncStateSet and hold a
// connection to every member.
func controllerCluster(t *testing.T) (*ctlCluster, *roleLog) {
	t.Helper()
	return controllerClusterTuned(t, nil)
}

// controllerClusterTuned is controllerCluster with the members' settings
// changed by tune.
func controllerClusterTuned(t *testing.T, tune func(*cluster.Config)) (*ctlCluster, *roleLog) {
	t.Helper()
	tc := &ctlCluster{Members: clustertest.Start(t, 3, tune), ctl: map[string]*Controller{}}
	log := &roleLog{sent: map[string][]state.ReplicaGroup{}}
	for _, n := range tc.Running() {
		tc.ctl[n.ID()] = New(n, Config{Serving: true, Logger: clustertest.Logger(t)})
		tc.ctl[n.ID()].SetNotifier(log.hook(n.ID()))
	}
	leader := tc.Leader()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	propose := func(ct fsm.CommandType, cmd any) {
		t.Helper()
		if res, err := tc.ctl[leader.ID()].proposeCommand(ctx, ct, cmd); err != nil || res.Refusal != state.RefusalNone {
			t.Fatalf("%s: %+v, %v", ct, res, err)
		}
	}
	propose(fsm.ApplyBrokerIDType, &state.ApplyBrokerID{ClusterName: "c", BrokerName: "b", BrokerID: 1, Addr: ctlMaster.Addr, CheckCode: "1"})
	propose(fsm.ApplyBrokerIDType, &state.ApplyBrokerID{ClusterName: "c", BrokerName: "b", BrokerID: 2, Addr: ctlSlave.Addr, CheckCode: "2"})
	tc.WaitApplied(leader.FSM().AppliedIndex())
	// The leader counts a replica alive only once it heard from it (or it
	// was in a group when the leader took office): both replicas heartbeat
	// before the group has a master, or the master scan (every second)
	// would find the master dead and elect.
	for _, n := range tc.Running() {
		for _, k := range []state.BrokerKey{ctlMaster, ctlSlave} {
			n.BrokerConnected(k)
		}
		heartbeatMaster(n)
		heartbeatSlave(n)
	}
	propose(fsm.ElectMasterType, &state.ElectMaster{BrokerName: "b", HasNewMaster: true, NewMasterID: 1})
	propose(fsm.AlterSyncStateSetType, &state.AlterSyncStateSet{BrokerName: "b", MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 1, NewSyncStateSet: []int64{1, 2}})
	tc.WaitApplied(leader.FSM().AppliedIndex())
	return tc, log
}

func heartbeatMaster(n *cluster.Node) {
	n.Replicas().HeardReplica(cluster.ControllerHeartbeat{Key: cluster.ReplicaKey{Cluster: "c", BrokerName: "b", ID: 1}, Addr: ctlMaster.Addr, Epoch: 1, MaxOffset: 10})
}

func heartbeatSlave(n *cluster.Node) {
	n.Replicas().HeardReplica(cluster.ControllerHeartbeat{Key: cluster.ReplicaKey{Cluster: "c", BrokerName: "b", ID: 2}, Addr: ctlSlave.Addr, Epoch: 1, MaxOffset: 10})
}

func group(t *testing.T, n *cluster.Node) state.ReplicaGroup {
	t.Helper()
	g, ok := n.FSM().ReplicaGroup("b")
	if !ok {
		t.Fatal("group b missing")
	}
	return g
}

// office returns the term of office the controller's master scan is in.
func (c *Controller) office(t *testing.T) cluster.Office {
	t.Helper()
	var o cluster.Office
	poll.For(t, 5*time.Second, "the controller in office", func() bool {
		c.termMu.Lock()
		defer c.termMu.Unlock()
		if c.term != nil {
			o = c.term.office
		}
		return c.term != nil
	})
	return o
}

func TestController_ALeaderChangeAloneElectsNobody(t *testing.T) {
	tc, log := controllerCluster(t)
	old := tc.Leader()
	tc.Stop(old)
	leader := tc.Leader()
	poll.For(t, 5*time.Second, "the new leader's reports settle", func() bool {
		return time.Now().After(leader.Replicas().ReplicasSettleAt())
	})
	// Every member still holds both brokers' connections: nothing is due.
	ctl := tc.ctl[leader.ID()]
	ctl.scanMasters(ctl.office(t))
	if g := group(t, leader); g.MasterID != 1 || g.MasterEpoch != 1 {
		t.Fatalf("a change of leader elected: %+v", g)
	}
	if sent := log.all(); len(sent) != 0 {
		t.Fatalf("notices sent without an election: %+v", sent)
	}
}

func TestController_LeaderDiesWithTheMaster(t *testing.T) {
	// A heartbeat timeout far beyond the test's life: the new leader
	// elects from the closed connections the members saw, or not at all.
	tc, log := controllerClusterTuned(t, func(c *cluster.Config) { c.ControllerHeartbeatTimeout = time.Hour })
	old := tc.Leader()
	// The master broker dies: every member sees its connection close; the
	// leader dies at the same moment, before it decided anything.
	for _, n := range tc.Followers() {
		n.BrokerDisconnected(ctlMaster)
		heartbeatSlave(n)
	}
	tc.Stop(old)
	var leader *cluster.Node
	poll.For(t, 20*time.Second, "the slave elected by the new leader", func() bool {
		for _, n := range tc.Running() {
			heartbeatSlave(n)
			if g := group(t, n); g.HasMaster && g.MasterID == 2 {
				leader = n
				return true
			}
		}
		return false
	})
	if g := group(t, leader); g.MasterEpoch != 2 || len(g.SyncStateSet) != 1 || g.SyncStateSet[0] != 2 {
		t.Fatalf("after the election: %+v", g)
	}
	poll.For(t, 5*time.Second, "one notice from the new leader", func() bool {
		sent := log.all()
		return len(sent) == 1 && len(sent[leader.ID()]) == 1 && sent[leader.ID()][0].MasterID == 2
	})
	if !leader.IsLeader() {
		t.Fatal("the member that elected is not the leader")
	}
}
