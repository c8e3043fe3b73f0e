package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"maps"
	"reflect"
	"slices"
	"testing"
)

// listFixture registers topics with unit flags on two groups in two clusters.
func listFixture(t *testing.T) *harness {
	h := newHarness(t)
	a := reg(brokerA, 0, masterAddr, 1)
	a.TopicConfigs = []state.TopicConfig{
		{TopicName: "Unit", Perm: 6, TopicSysFlag: state.FlagUnit},
		{TopicName: "UnitSub", Perm: 6, TopicSysFlag: state.FlagUnitSub},
		{TopicName: "Both", Perm: 6, TopicSysFlag: state.FlagUnit | state.FlagUnitSub},
		{TopicName: "Plain", Perm: 6},
		{TopicName: "Mixed", Perm: 6, TopicSysFlag: state.FlagUnit}, // first by name: broker-a
	}
	h.register(a)
	b := reg(brokerB, 0, "10.0.0.9:10911", 1)
	b.ClusterName = "ClusterB"
	b.TopicConfigs = []state.TopicConfig{{TopicName: "Mixed", Perm: 6, TopicSysFlag: state.FlagUnitSub}, {TopicName: "OnlyB", Perm: 6}}
	h.register(b)
	h.register(reg(brokerA, 1, slaveAddr, 1))
	return h
}

func TestFSM_TopicLists_Filters(t *testing.T) {
	h := listFixture(t)
	cases := []struct {
		name string
		got  state.TopicList
		want state.TopicList
	}{
		{"all", h.f.AllTopics(), state.TopicList{Topics: []string{"Both", "Mixed", "OnlyB", "Plain", "Unit", "UnitSub"}}},
		{"by cluster", h.f.TopicsByCluster(cluster), state.TopicList{Topics: []string{"Both", "Mixed", "Plain", "Unit", "UnitSub"}}},
		{"by other cluster", h.f.TopicsByCluster("ClusterB"), state.TopicList{Topics: []string{"Mixed", "OnlyB"}}},
		{"by unknown cluster", h.f.TopicsByCluster("Nope"), state.TopicList{Topics: []string{}}},
		{"system", h.f.SystemTopics(), state.TopicList{Topics: []string{"ClusterB", cluster, brokerA, brokerB}, BrokerAddr: masterAddr}},
		{"unit", h.f.UnitTopics(), state.TopicList{Topics: []string{"Both", "Mixed", "Unit"}}},
		{"has unit sub", h.f.HasUnitSubTopics(), state.TopicList{Topics: []string{"Both", "UnitSub"}}},
		{"has unit sub, not unit", h.f.HasUnitSubUnunitTopics(), state.TopicList{Topics: []string{"UnitSub"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !reflect.DeepEqual(tc.got, tc.want) {
				t.Fatalf("got %+v, want %+v", tc.got, tc.want)
			}
		})
	}
}

func TestFSM_TopicLists_Empty(t *testing.T) {
	f := New(nil)
	for name, tl := range map[string]state.TopicList{"all": f.AllTopics(), "system": f.SystemTopics(), "unit": f.UnitTopics()} {
		if tl.Topics == nil || len(tl.Topics) != 0 || tl.BrokerAddr != "" {
			t.Fatalf("%s = %+v, want an empty non-nil list", name, tl)
		}
	}
}

func TestFSM_ClusterInfo_ReturnsCopies(t *testing.T) {
	h := listFixture(t)
	ci := h.f.ClusterInfo()
	wantClusters := map[string][]string{cluster: {brokerA}, "ClusterB": {brokerB}}
	if !reflect.DeepEqual(ci.ClusterAddrTable, wantClusters) {
		t.Fatalf("clusterAddrTable = %v, want %v", ci.ClusterAddrTable, wantClusters)
	}
	if got := ci.BrokerAddrTable[brokerA].BrokerAddrs; !maps.Equal(got, map[int64]string{0: masterAddr, 1: slaveAddr}) {
		t.Fatalf("broker-a addrs = %v", got)
	}
	ci.BrokerAddrTable[brokerA].BrokerAddrs[5] = "mutated"
	if _, ok := h.f.ClusterInfo().BrokerAddrTable[brokerA].BrokerAddrs[5]; ok {
		t.Fatal("mutating a returned ClusterInfo changed the FSM")
	}
}

func TestFSM_BrokerMemberGroup_EchoesRequest(t *testing.T) {
	h := listFixture(t)
	cases := []struct {
		name, cluster, broker string
		want                  map[int64]string
	}{
		{"known", cluster, brokerA, map[int64]string{0: masterAddr, 1: slaveAddr}},
		{"cluster is only echoed", "Whatever", brokerA, map[int64]string{0: masterAddr, 1: slaveAddr}},
		{"unknown", cluster, "nobody", map[int64]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := h.f.BrokerMemberGroup(tc.cluster, tc.broker)
			if g.Cluster != tc.cluster || g.BrokerName != tc.broker || g.BrokerAddrs == nil || !maps.Equal(g.BrokerAddrs, tc.want) {
				t.Fatalf("group = %+v, want addrs %v", g, tc.want)
			}
		})
	}
}

func TestFSM_Route_Sorting(t *testing.T) {
	h := listFixture(t)
	rd := h.route("Mixed")
	var qNames, bNames []string
	for _, qd := range rd.QueueDatas {
		qNames = append(qNames, qd.BrokerName)
	}
	for _, bd := range rd.BrokerDatas {
		bNames = append(bNames, bd.BrokerName)
	}
	if want := []string{brokerA, brokerB}; !slices.Equal(qNames, want) || !slices.Equal(bNames, want) {
		t.Fatalf("queue %v, broker %v, want both %v", qNames, bNames, want)
	}
	if rd.FilterServerTable == nil || rd.TopicQueueMappingByBroker != nil {
		t.Fatalf("filterServerTable nil=%v, mapping=%v; want non-nil and nil", rd.FilterServerTable == nil, rd.TopicQueueMappingByBroker)
	}
	h.noRoute("Missing")
}

func TestFSM_Registrations_SortedWithCounts(t *testing.T) {
	h := listFixture(t)
	regs := h.f.Registrations()
	var keys []state.BrokerKey
	for _, r := range regs {
		keys = append(keys, r.Key)
	}
	want := []state.BrokerKey{{Cluster: "ClusterB", Addr: "10.0.0.9:10911"}, {Cluster: cluster, Addr: masterAddr}, {Cluster: cluster, Addr: slaveAddr}}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys = %v, want %v", keys, want)
	}
	if b, tp := h.f.Counts(); b != 3 || tp != 6 {
		t.Fatalf("Counts = %d, %d; want 3, 6", b, tp)
	}
	if _, ok := h.f.Registration(state.BrokerKey{Cluster: "ClusterB", Addr: masterAddr}); ok {
		t.Fatal("registration found under the wrong cluster")
	}
}
