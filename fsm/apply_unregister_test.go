package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"maps"
	"testing"
)

func TestFSM_UnregisterBroker_Semantics(t *testing.T) {
	type check func(t *testing.T, h *harness)
	routeAddrs := func(want map[int64]string) check {
		return func(t *testing.T, h *harness) {
			if got := h.route("TestTopic").BrokerDatas[0].BrokerAddrs; !maps.Equal(got, want) {
				t.Fatalf("brokerAddrs = %v, want %v", got, want)
			}
		}
	}
	permIs := func(want int32) check {
		return func(t *testing.T, h *harness) {
			if got := h.perm("TestTopic", brokerA); got != want {
				t.Fatalf("perm = %d, want %d", got, want)
			}
		}
	}
	noRoute := func(t *testing.T, h *harness) { h.noRoute("TestTopic"); h.noRoute("TestTopic1") }
	cases := []struct {
		name   string
		acting bool
		unreg  state.UnregisterBroker
		checks []check
	}{
		{"slave leaves, master stays", false, state.UnregisterBroker{ClusterName: cluster, BrokerAddr: slaveAddr, BrokerName: brokerA, BrokerID: 1},
			[]check{routeAddrs(map[int64]string{0: masterAddr}), permIs(6)}},
		{"master leaves, 4.x style keeps perm", false, state.UnregisterBroker{ClusterName: cluster, BrokerAddr: masterAddr, BrokerName: brokerA, BrokerID: 0},
			[]check{routeAddrs(map[int64]string{1: slaveAddr}), permIs(6)}},
		{"master leaves, acting master wipes write", true, state.UnregisterBroker{ClusterName: cluster, BrokerAddr: masterAddr, BrokerName: brokerA, BrokerID: 0},
			[]check{routeAddrs(map[int64]string{1: slaveAddr}), permIs(state.PermRead)}},
		{"removal is by address, not id", false, state.UnregisterBroker{ClusterName: cluster, BrokerAddr: slaveAddr, BrokerName: brokerA, BrokerID: 7},
			[]check{routeAddrs(map[int64]string{0: masterAddr})}},
		{"wrong broker name leaves the group", false, state.UnregisterBroker{ClusterName: cluster, BrokerAddr: slaveAddr, BrokerName: brokerB, BrokerID: 1},
			[]check{routeAddrs(map[int64]string{0: masterAddr, 1: slaveAddr})}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			m, s := reg(brokerA, 0, masterAddr, 1, "TestTopic"), reg(brokerA, 1, slaveAddr, 1, "TestTopic")
			m.EnableActingMaster, s.EnableActingMaster = tc.acting, tc.acting
			h.register(m)
			h.register(s)
			h.apply(UnregisterBrokerType, &tc.unreg)
			for _, c := range tc.checks {
				c(t, h)
			}
			_, live := h.f.Registration(state.BrokerKey{Cluster: tc.unreg.ClusterName, Addr: tc.unreg.BrokerAddr})
			if live {
				t.Fatal("the unregistered address still has a live entry")
			}
		})
	}
	t.Run("last member removes group, cluster and topics", func(t *testing.T) {
		h := newHarness(t)
		h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic", "TestTopic1"))
		h.register(reg(brokerB, 0, "10.0.0.9:10911", 1, "Shared"))
		h.register(reg(brokerA, 0, masterAddr, 2, "TestTopic", "TestTopic1", "Shared"))
		h.unregister(cluster, masterAddr, brokerA, 0)
		noRoute(t, h)
		if rd := h.route("Shared"); len(rd.QueueDatas) != 1 || rd.QueueDatas[0].BrokerName != brokerB {
			t.Fatalf("Shared = %+v, want only broker-b", rd.QueueDatas)
		}
		ci := h.f.ClusterInfo()
		if _, ok := ci.BrokerAddrTable[brokerA]; ok || len(ci.ClusterAddrTable[cluster]) != 1 {
			t.Fatalf("cluster info = %+v, want broker-a gone", ci)
		}
		h.unregister(cluster, "10.0.0.9:10911", brokerB, 0)
		if ci := h.f.ClusterInfo(); len(ci.ClusterAddrTable) != 0 || len(ci.BrokerAddrTable) != 0 {
			t.Fatalf("cluster info = %+v, want empty", ci)
		}
	})
}

func TestFSM_UnregisterBroker_UnknownIsNoop(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic"))
	before, gen := h.f.Digest(), h.f.Generation()
	h.unregister(cluster, "10.9.9.9:1", "nobody", 0)
	h.unregister(cluster, "10.9.9.9:1", brokerA, 1)
	if h.f.Digest() != before || h.f.Generation() != gen {
		t.Fatal("unregistering unknown brokers changed the state")
	}
	if got := h.f.LastChangeIndex(); got != 1 {
		t.Fatalf("LastChangeIndex = %d, want 1", got)
	}
}

func TestFSM_ExpireBrokers_ConditionalOnEpoch(t *testing.T) {
	key := state.BrokerKey{Cluster: cluster, Addr: masterAddr}
	cases := []struct {
		name      string
		epoch     uint64
		reregBy   bool // the broker registers again before the expiry commits
		wantGone  bool
		wantRoute bool
	}{
		{"matching epoch expires", 1, false, true, false},
		{"stale epoch is skipped", 0, false, false, true},
		{"re-registration moves the epoch on", 1, true, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic"))
			if tc.reregBy {
				h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic"))
			}
			h.apply(ExpireBrokersType, &state.ExpireBrokers{Reason: "timeout", Brokers: []state.ExpiredBroker{{Key: key, RegEpoch: tc.epoch}}})
			if _, ok := h.f.Registration(key); ok == tc.wantGone {
				t.Fatalf("registration present = %v, want %v", ok, !tc.wantGone)
			}
			if _, ok := h.f.Route("TestTopic", false); ok != tc.wantRoute {
				t.Fatalf("route present = %v, want %v", ok, tc.wantRoute)
			}
		})
	}
}

func TestFSM_ExpireBrokers_Batch(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	h.register(reg(brokerB, 0, "10.0.0.9:10911", 1, "T2"))
	h.register(reg(brokerA, 1, slaveAddr, 1, "T1"))
	h.apply(ExpireBrokersType, &state.ExpireBrokers{Reason: "connection-closed", Brokers: []state.ExpiredBroker{
		{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: 1},
		{Key: state.BrokerKey{Cluster: cluster, Addr: "10.0.0.9:10911"}, RegEpoch: 2},
		{Key: state.BrokerKey{Cluster: cluster, Addr: slaveAddr}, RegEpoch: 99}, // moved on
	}})
	h.noRoute("T2")
	if got := h.route("T1").BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{1: slaveAddr}) {
		t.Fatalf("T1 brokerAddrs = %v, want only the slave", got)
	}
	if regs := h.f.Registrations(); len(regs) != 1 || regs[0].Key.Addr != slaveAddr {
		t.Fatalf("registrations = %+v, want only the slave", regs)
	}
}

func TestFSM_ExpireBrokers_AddressTakenOver(t *testing.T) {
	// Another address took id 0; the expired one is in no group of its
	// cluster. DEVIATION: its live entry is dropped instead of lingering.
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	h.register(reg(brokerA, 0, slaveAddr, 1, "T1"))
	h.apply(ExpireBrokersType, &state.ExpireBrokers{Brokers: []state.ExpiredBroker{{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: 1}}})
	if _, ok := h.f.Registration(state.BrokerKey{Cluster: cluster, Addr: masterAddr}); ok {
		t.Fatal("the replaced address kept its live entry")
	}
	if got := h.route("T1").BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{0: slaveAddr}) {
		t.Fatalf("brokerAddrs = %v, want the new holder untouched", got)
	}
}
