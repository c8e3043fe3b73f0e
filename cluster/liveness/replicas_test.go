package liveness

import (
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
)

// replicaLessor is a lessor whose FSM has one controller group: master 1
// at addr "m", replica 2 at "s".
func replicaLessor(t *testing.T) (*Lessor, *fakeClock, ReplicaKey, ReplicaKey) {
	t.Helper()
	l, clk := testLessor(reg("m", 1, 0), reg("s", 2, 0))
	l.cfg.OtherVoters = func() int { return 2 }
	l.cfg.ReplicaGroups = func() []state.ReplicaGroup {
		return []state.ReplicaGroup{{ClusterName: "c", BrokerName: "b", HasMaster: true, MasterID: 1, MasterEpoch: 1,
			Brokers: []state.ReplicaBroker{{ID: 1, Addr: "m"}, {ID: 2, Addr: "s"}}, SyncStateSet: []int64{1, 2}}}
	}
	return l, clk, ReplicaKey{"c", "b", 1}, ReplicaKey{"c", "b", 2}
}

func TestReplicaLeases_OnlyTheLeaderKnowsAndANewOneStartsFresh(t *testing.T) {
	l, clk, master, slave := replicaLessor(t)
	l.HeardReplica(ControllerHeartbeat{Key: slave, Addr: "s", Epoch: 3, MaxOffset: 9})
	if l.ReplicaAlive(master) {
		t.Fatal("a follower counted a replica alive")
	}
	// Taking office: every replica was just heard from, and what this
	// member batched as a follower moves in.
	l.Promote(7)
	if !l.ReplicaAlive(master) || !l.ReplicaAlive(slave) {
		t.Fatal("a new leader does not count every replica alive")
	}
	if live, _ := l.ReplicaLive(slave); live.Epoch != 3 || live.MaxOffset != 9 {
		t.Fatalf("slave live info = %+v", live)
	}
	// A leader change alone never kills anyone: only silence does.
	clk.advance(9 * time.Second)
	l.HeardReplica(ControllerHeartbeat{Key: slave, Addr: "s", Epoch: 3, MaxOffset: 5})
	if !l.ReplicaAlive(master) {
		t.Fatal("master dead before its timeout")
	}
	if live, _ := l.ReplicaLive(slave); live.MaxOffset != 9 {
		t.Fatalf("the log position went back: %+v", live)
	}
	clk.advance(2 * time.Second)
	if l.ReplicaAlive(master) || !l.ReplicaAlive(slave) {
		t.Fatal("timeout: want master dead, slave alive")
	}
	l.Demote()
	if l.ReplicaAlive(slave) {
		t.Fatal("a demoted leader still answers liveness")
	}
}

func TestReplicaLeases_ConnectionCloseOnTheLeaderKillsAtOnce(t *testing.T) {
	l, clk, master, _ := replicaLessor(t)
	l.Promote(7)
	mk := state.BrokerKey{Cluster: "c", Addr: "m"}
	l.Heard(mk, ConnOpened)
	clk.advance(5 * time.Second)
	l.HeardReplica(ControllerHeartbeat{Key: master, Addr: "m"})
	clk.advance(time.Millisecond)
	if !l.Heard(mk, ConnClosed) {
		t.Fatal("the leader did not ask for a scan when a broker's connection closed")
	}
	if l.ReplicaAlive(master) {
		t.Fatal("master alive after its connection to the leader closed")
	}
	// A heartbeat after the close (the broker reconnected) revives it.
	clk.advance(time.Millisecond)
	l.HeardReplica(ControllerHeartbeat{Key: master, Addr: "m"})
	if !l.ReplicaAlive(master) {
		t.Fatal("a heartbeat after the close did not count")
	}
}

func TestReplicaLeases_NewLeaderUsesTheMembersConnectionReports(t *testing.T) {
	l, clk, master, slave := replicaLessor(t)
	mk, sk := state.BrokerKey{Cluster: "c", Addr: "m"}, state.BrokerKey{Cluster: "c", Addr: "s"}
	// As a follower this member saw the master's connection close; the
	// slave stays connected here.
	l.Heard(mk, ConnOpened)
	l.Heard(sk, ConnOpened)
	l.Heard(mk, ConnClosed)
	l.Promote(9)
	if !l.ReplicaAlive(master) {
		t.Fatal("a close seen before taking office counted before the members could report")
	}
	// Another member still holds a connection from the master: alive.
	l.Receive(&Batch{From: "n2", Held: []state.BrokerKey{mk, sk}})
	clk.advance(1500 * time.Millisecond)
	if !l.ReplicaAlive(master) {
		t.Fatal("master dead although a member reports its connection")
	}
	// That member's next report no longer has it: dead, long before the
	// heartbeat timeout.
	l.Receive(&Batch{From: "n2", Held: []state.BrokerKey{sk}, Closed: []state.BrokerKey{mk}})
	if l.ReplicaAlive(master) || !l.ReplicaAlive(slave) {
		t.Fatal("want the master dead and the slave alive once no member holds the master")
	}
}

func TestReplicaLeases_ForgetsCleanedReplicas(t *testing.T) {
	l, _, master, slave := replicaLessor(t)
	l.Promote(7)
	l.Heard(state.BrokerKey{Cluster: "c", Addr: "m"}, ConnOpened)
	l.Heard(state.BrokerKey{Cluster: "c", Addr: "m"}, ConnClosed)
	l.PruneReplicas([]state.ReplicaGroup{{ClusterName: "c", BrokerName: "b", Brokers: []state.ReplicaBroker{{ID: 2, Addr: "s"}}}})
	if _, ok := l.ReplicaLive(master); ok || len(l.replicas.selfClosed) != 0 {
		t.Fatalf("a cleaned replica is still tracked: leases %v, closes %v", l.replicas.leases, l.replicas.selfClosed)
	}
	if _, ok := l.ReplicaLive(slave); !ok {
		t.Fatal("a kept replica was forgotten")
	}
}

func TestReplicaLeases_AMajorityOfReportsSettlesEarly(t *testing.T) {
	l, clk, master, _ := replicaLessor(t)
	mk := state.BrokerKey{Cluster: "c", Addr: "m"}
	l.Heard(mk, ConnOpened)
	l.Heard(mk, ConnClosed)
	l.Promote(9)
	clk.advance(300 * time.Millisecond)
	if !l.ReplicaAlive(master) {
		t.Fatal("a close counted before any other member reported")
	}
	l.Receive(&Batch{From: "n2", Held: []state.BrokerKey{{Cluster: "c", Addr: "s"}}})
	if l.ReplicaAlive(master) {
		t.Fatal("with a majority reported and none holding the master, it is still alive")
	}
}
