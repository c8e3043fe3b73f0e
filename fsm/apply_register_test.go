package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"maps"
	"reflect"
	"slices"
	"testing"
)

func TestFSM_RegisterBroker_MasterThenSlave(t *testing.T) {
	h := newHarness(t)
	if res := h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic")); res.MasterAddr != "" || res.HaServerAddr != "" {
		t.Fatalf("master result = %+v, want no master/HA address", res)
	}
	res := h.register(reg(brokerA, 1, slaveAddr, 1, "TestTopic"))
	if res.MasterAddr != masterAddr || res.HaServerAddr != masterHA {
		t.Fatalf("slave result = %+v, want master %s HA %s", res, masterAddr, masterHA)
	}
	rd := h.route("TestTopic")
	if want := map[int64]string{0: masterAddr, 1: slaveAddr}; !maps.Equal(rd.BrokerDatas[0].BrokerAddrs, want) {
		t.Fatalf("brokerAddrs = %v, want %v", rd.BrokerDatas[0].BrokerAddrs, want)
	}
	if len(rd.QueueDatas) != 1 || rd.QueueDatas[0].Perm != 6 {
		t.Fatalf("queueDatas = %+v, want one with perm 6 (slave must not add its own)", rd.QueueDatas)
	}
	got, ok := h.f.Registration(state.BrokerKey{Cluster: cluster, Addr: slaveAddr})
	if !ok || got.RegEpoch != 2 || got.BrokerID != 1 || got.HaServerAddr != slaveHA ||
		got.HeartbeatTimeoutMillis != 0 || got.RegisteredAtMillis != 1700000000001 {
		t.Fatalf("slave registration = %+v, %v", got, ok)
	}
}

func TestFSM_RegisterBroker_SlaveWithoutLiveMaster(t *testing.T) {
	t.Run("master live only in another cluster", func(t *testing.T) {
		h := newHarness(t)
		m := reg(brokerA, 0, masterAddr, 1, "TestTopic")
		m.ClusterName = "Other"
		h.register(m)
		// The group lists id 0, but (DefaultCluster, master) has no live entry.
		if res := h.register(reg(brokerA, 1, slaveAddr, 1, "TestTopic")); res.MasterAddr != "" || res.HaServerAddr != "" {
			t.Fatalf("slave result = %+v, want no master", res)
		}
	})
	t.Run("master expired", func(t *testing.T) {
		h := newHarness(t)
		h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic"))
		h.apply(ExpireBrokersType, &state.ExpireBrokers{Brokers: []state.ExpiredBroker{{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: 1}}})
		if res := h.register(reg(brokerA, 1, slaveAddr, 1, "TestTopic")); res.MasterAddr != "" {
			t.Fatalf("slave result = %+v, want no master", res)
		}
	})
}

func TestFSM_RegisterBroker_OnlySlave(t *testing.T) {
	cases := []struct {
		name      string
		hasHeader bool // 5.x broker
		acting    bool
		wantRoute bool
		wantPerm  int32
	}{
		{"acting-master prime slave is read-only", true, true, true, state.PermRead},
		{"prime slave without acting master keeps perm", true, false, true, 6},
		{"4.x slave adds no queue data", false, false, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			c := reg(brokerA, 1, slaveAddr, 1, "TestTopic")
			c.HasEnableActingMaster, c.EnableActingMaster = tc.hasHeader, tc.acting
			h.register(c)
			if !tc.wantRoute {
				h.noRoute("TestTopic")
				return
			}
			if got := h.route("TestTopic").QueueDatas[0].Perm; got != tc.wantPerm {
				t.Fatalf("perm = %d, want %d", got, tc.wantPerm)
			}
		})
	}
}

func TestFSM_RegisterBroker_ActingMasterRecovery(t *testing.T) {
	// RouteInfoManagerNewTest.registerOnlySlaveBroker, case 2.
	h := newHarness(t)
	master, slave := reg(brokerA, 0, masterAddr, 1, "TestTopic"), reg(brokerA, 1, slaveAddr, 1, "TestTopic")
	master.EnableActingMaster, slave.EnableActingMaster = true, true
	h.register(master)
	h.register(slave)
	if p := h.perm("TestTopic", brokerA); p&state.PermWrite == 0 {
		t.Fatalf("perm with master = %d, want writable", p)
	}
	h.unregister(cluster, masterAddr, brokerA, 0)
	if p := h.perm("TestTopic", brokerA); p&state.PermWrite != 0 {
		t.Fatalf("perm after master left = %d, want read-only", p)
	}
	h.register(master)
	if p := h.perm("TestTopic", brokerA); p&state.PermWrite == 0 {
		t.Fatalf("perm after master returned = %d, want writable", p)
	}
}

func TestFSM_RegisterBroker_ReRegistration(t *testing.T) {
	cases := []struct {
		name       string
		second     func() *state.RegisterBroker
		wantChange bool
		wantPerm   int32
	}{
		{"same data is a no-op", func() *state.RegisterBroker { return reg(brokerA, 0, masterAddr, 1, "T1", "T2") }, false, 6},
		{"same version ignores changed topic config", func() *state.RegisterBroker {
			c := reg(brokerA, 0, masterAddr, 1, "T1", "T2")
			c.TopicConfigs[0].Perm = state.PermRead
			return c
		}, false, 6},
		{"new version updates topic config", func() *state.RegisterBroker {
			c := reg(brokerA, 0, masterAddr, 2, "T1", "T2")
			c.TopicConfigs[0].Perm = state.PermRead
			return c
		}, true, state.PermRead},
		{"stateVersion alone is a new version", func() *state.RegisterBroker {
			c := reg(brokerA, 0, masterAddr, 1, "T1", "T2")
			c.DataVersion.StateVersion = 1
			c.TopicConfigs[0].Perm = state.PermRead
			return c
		}, true, state.PermRead},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.register(reg(brokerA, 0, masterAddr, 1, "T1", "T2"))
			before := h.contentDigest()
			second := tc.second()
			if got := h.f.WouldChange(second); got != tc.wantChange {
				t.Fatalf("WouldChange = %v, want %v", got, tc.wantChange)
			}
			h.register(second)
			if changed := h.contentDigest() != before; changed != tc.wantChange {
				t.Fatalf("state changed = %v, want %v", changed, tc.wantChange)
			}
			if p := h.perm("T1", brokerA); p != tc.wantPerm {
				t.Fatalf("T1 perm = %d, want %d", p, tc.wantPerm)
			}
			if r, _ := h.f.Registration(state.BrokerKey{Cluster: cluster, Addr: masterAddr}); r.RegEpoch != 2 {
				t.Fatalf("RegEpoch = %d, want 2 (every applied registration stamps it)", r.RegEpoch)
			}
		})
	}
}

func TestFSM_RegisterBroker_NeverRemovesTopics(t *testing.T) {
	// keepTopicWithBrokerRegistration (deleteTopicWithBrokerRegistration off).
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic", "TestTopic1"))
	h.register(reg(brokerA, 0, masterAddr, 2, "TestTopic1"))
	h.route("TestTopic")
	h.route("TestTopic1")
}

func TestFSM_RegisterBroker_SlaveToMasterSwitch(t *testing.T) {
	// RouteInfoManagerNewTest.switchBrokerRole.
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "TestTopic"))
	h.register(reg(brokerA, 1, slaveAddr, 1, "TestTopic"))
	h.unregister(cluster, masterAddr, brokerA, 0)
	steps := []struct {
		cmd  *state.RegisterBroker
		want map[int64]string
	}{
		{reg(brokerA, 0, slaveAddr, 2, "TestTopic"), map[int64]string{0: slaveAddr}},
		{reg(brokerA, 1, masterAddr, 2, "TestTopic"), map[int64]string{0: slaveAddr, 1: masterAddr}},
	}
	if got := h.route("TestTopic").BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{1: slaveAddr}) {
		t.Fatalf("after master left: %v", got)
	}
	for i, st := range steps {
		if !h.f.WouldChange(st.cmd) {
			t.Fatalf("step %d: WouldChange = false for an id switch", i)
		}
		h.register(st.cmd)
		if got := h.route("TestTopic").BrokerDatas[0].BrokerAddrs; !maps.Equal(got, st.want) {
			t.Fatalf("step %d: brokerAddrs = %v, want %v", i, got, st.want)
		}
	}
}

func TestFSM_RegisterBroker_StaleStateVersion(t *testing.T) {
	h := newHarness(t)
	cur := reg(brokerA, 0, masterAddr, 1, "TestTopic")
	cur.DataVersion.StateVersion = 5
	h.register(cur)
	h.register(reg(brokerA, 1, slaveAddr, 1, "TestTopic"))
	h.apply(PutKVType, &state.PutKV{Namespace: state.NamespaceOrderTopicConfig, Key: "TestTopic", Value: "broker-a:8", HasValue: true})

	stale := reg(brokerA, 0, slaveAddr, 2, "TestTopic", "Other")
	stale.DataVersion.StateVersion = 3
	stale.ZoneName = "zone-x"
	res := h.register(stale)
	if res.MasterAddr != "" || res.HaServerAddr != "" || !res.HasOrderTopicConfig {
		t.Fatalf("stale result = %+v, want empty but with the ORDER_TOPIC_CONFIG table", res)
	}
	// Steps before the guard applied: the switch dropped id 1 (same address), zone set.
	bd := h.route("TestTopic").BrokerDatas[0]
	if !maps.Equal(bd.BrokerAddrs, map[int64]string{0: masterAddr}) || bd.ZoneName != "zone-x" {
		t.Fatalf("group = %+v, want only the master and zone-x", bd)
	}
	if _, ok := h.f.Registration(state.BrokerKey{Cluster: cluster, Addr: slaveAddr}); ok {
		t.Fatal("the stale broker's live entry survived")
	}
	h.noRoute("Other")
	// Sent again, the stale registration has nothing left to change.
	before := h.contentDigest()
	if h.f.WouldChange(stale) {
		t.Fatal("WouldChange = true for a repeated stale registration")
	}
	h.register(stale)
	if h.contentDigest() != before {
		t.Fatal("a repeated stale registration changed the state")
	}

	// An equal or newer stateVersion takes the id over.
	takeover := reg(brokerA, 0, slaveAddr, 3, "TestTopic")
	takeover.DataVersion.StateVersion = 5
	h.register(takeover)
	if got := h.route("TestTopic").BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{0: slaveAddr}) {
		t.Fatalf("after takeover brokerAddrs = %v", got)
	}
}

func TestFSM_RegisterBroker_SingleTopicFirstRegistrationAccepted(t *testing.T) {
	// DEVIATION from 5.x: the reference answers "register broker failed".
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "OnlyTopic"))
	h.route("OnlyTopic")
	if _, ok := h.f.Registration(state.BrokerKey{Cluster: cluster, Addr: masterAddr}); !ok {
		t.Fatal("no live entry after a single-topic first registration")
	}
}

func TestFSM_RegisterBroker_HeaderFields(t *testing.T) {
	h := newHarness(t)
	c := reg(brokerA, 0, masterAddr, 1, "TestTopic")
	c.ZoneName, c.EnableActingMaster, c.HeartbeatTimeoutMillis = "zone1", true, 10000
	h.register(c)
	bd := h.route("TestTopic").BrokerDatas[0]
	if bd.ZoneName != "zone1" || !bd.EnableActingMaster {
		t.Fatalf("group = %+v, want zone1 and acting master", bd)
	}
	if r, _ := h.f.Registration(c.Key()); r.HeartbeatTimeoutMillis != 10000 {
		t.Fatalf("timeout = %d, want 10000", r.HeartbeatTimeoutMillis)
	}
	// A 4.x registration (no headers) resets both, with the same DataVersion.
	old := reg(brokerA, 0, masterAddr, 1, "TestTopic")
	old.HasEnableActingMaster = false
	if !h.f.WouldChange(old) {
		t.Fatal("WouldChange = false although zone and acting master change")
	}
	h.register(old)
	bd = h.route("TestTopic").BrokerDatas[0]
	if bd.ZoneName != "" || bd.EnableActingMaster {
		t.Fatalf("group = %+v, want no zone, no acting master", bd)
	}
	if r, _ := h.f.Registration(c.Key()); r.HeartbeatTimeoutMillis != 0 {
		t.Fatalf("timeout = %d, want 0 (none registered: the leader's default applies)", r.HeartbeatTimeoutMillis)
	}
}

func TestFSM_RegisterBroker_FilterServers(t *testing.T) {
	withFilters := func(has bool, list ...string) *state.RegisterBroker {
		c := reg(brokerA, 0, masterAddr, 1, "TestTopic")
		c.HasFilterServerList, c.FilterServerList = has, list
		return c
	}
	cases := []struct {
		name string
		cmd  *state.RegisterBroker
		want []string // nil: no entry
	}{
		{"legacy path keeps the list", withFilters(false), []string{"f1:1"}},
		{"empty list removes", withFilters(true), nil},
		{"new list replaces", withFilters(true, "f2:2", "f3:3"), []string{"f2:2", "f3:3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.register(withFilters(true, "f1:1"))
			h.register(tc.cmd)
			got := h.route("TestTopic").FilterServerTable
			want := map[string][]string{}
			if tc.want != nil {
				want[masterAddr] = tc.want
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("filterServerTable = %v, want %v", got, want)
			}
		})
	}
}

func TestFSM_RegisterBroker_MappingInfos(t *testing.T) {
	h := newHarness(t)
	mi := state.TopicQueueMappingInfo{Topic: "Static", Scope: "__global__", TotalQueues: 2, Bname: brokerA, Epoch: 1,
		CurrIDMap: map[int32]int32{0: 0, 1: 1}}
	c := reg(brokerA, 0, masterAddr, 1, "Static")
	c.MappingInfos = []state.TopicQueueMappingInfo{mi}
	h.register(c)
	if got := h.route("Static").TopicQueueMappingByBroker; !reflect.DeepEqual(got, map[string]state.TopicQueueMappingInfo{brokerA: mi}) {
		t.Fatalf("mapping = %+v", got)
	}
	// Same DataVersion: mapping infos are not re-read (step 9).
	same := reg(brokerA, 0, masterAddr, 1, "Static")
	same.MappingInfos = []state.TopicQueueMappingInfo{{Topic: "Static", Bname: brokerA, Epoch: 9}}
	if h.f.WouldChange(same) {
		t.Fatal("WouldChange = true for new mapping infos under the same DataVersion")
	}
	next := reg(brokerA, 0, masterAddr, 2, "Static")
	next.MappingInfos = same.MappingInfos
	h.register(next)
	if got := h.route("Static").TopicQueueMappingByBroker[brokerA].Epoch; got != 9 {
		t.Fatalf("mapping epoch = %d, want 9", got)
	}
}

func TestFSM_RegisterBroker_ReaddsDeletedTopic(t *testing.T) {
	// 5.x step 9: a topic without QueueData for this broker counts as changed.
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1", "T2"))
	h.apply(DeleteTopicType, &state.DeleteTopic{Topic: "T2"})
	h.noRoute("T2")
	same := reg(brokerA, 0, masterAddr, 1, "T1", "T2")
	if !h.f.WouldChange(same) {
		t.Fatal("WouldChange = false although T2 lost its queue data")
	}
	h.register(same)
	h.route("T2")
}

func TestFSM_RegisterBroker_ClusterMembership(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	moved := reg(brokerA, 0, masterAddr, 1, "T1")
	moved.ClusterName = "Other"
	h.register(moved)
	ci := h.f.ClusterInfo()
	want := map[string][]string{cluster: {brokerA}, "Other": {brokerA}}
	if !reflect.DeepEqual(ci.ClusterAddrTable, want) {
		t.Fatalf("clusterAddrTable = %v, want %v (the old cluster keeps the name)", ci.ClusterAddrTable, want)
	}
	if ci.BrokerAddrTable[brokerA].Cluster != cluster {
		t.Fatalf("group cluster = %q, want the creating cluster", ci.BrokerAddrTable[brokerA].Cluster)
	}
}

func TestFSM_RegisterBroker_ResultCarriesOrderTopicConfig(t *testing.T) {
	h := newHarness(t)
	if res := h.register(reg(brokerA, 0, masterAddr, 1, "T1")); res.HasOrderTopicConfig {
		t.Fatalf("result = %+v, want no ORDER_TOPIC_CONFIG without the namespace", res)
	}
	h.apply(PutKVType, &state.PutKV{Namespace: state.NamespaceOrderTopicConfig, Key: "T1", Value: "broker-a:4", HasValue: true})
	c := reg(brokerA, 1, slaveAddr, 1, "T1")
	want := state.RegisterResult{MasterAddr: masterAddr, HaServerAddr: masterHA, HasOrderTopicConfig: true,
		OrderTopicConfig: map[string]string{"T1": "broker-a:4"}}
	if got := h.f.RegisterResult(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("RegisterResult = %+v, want %+v", got, want)
	}
	if got := h.register(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("Apply result = %+v, want %+v", got, want)
	}
}

func TestFSM_RegisterBroker_DuplicateTopicInOneRequest(t *testing.T) {
	h := newHarness(t)
	c := reg(brokerA, 0, masterAddr, 1)
	c.TopicConfigs = []state.TopicConfig{topicConfig("T", 6), topicConfig("T", state.PermRead)}
	h.register(c)
	if p := h.perm("T", brokerA); p != state.PermRead {
		t.Fatalf("perm = %d, want the last config's %d", p, state.PermRead)
	}
	if !slices.Equal(h.f.AllTopics().Topics, []string{"T"}) {
		t.Fatalf("topics = %v", h.f.AllTopics().Topics)
	}
}
