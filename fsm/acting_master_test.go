package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"maps"
	"strings"
	"testing"
)

// actingRoute is a route of one group whose queue data has perm.
func actingRoute(addrs map[int64]string, acting bool, perm int32) state.TopicRouteData {
	return state.TopicRouteData{
		QueueDatas:  []state.QueueData{{BrokerName: brokerA, ReadQueueNums: 4, WriteQueueNums: 4, Perm: perm}},
		BrokerDatas: []state.BrokerData{{Cluster: cluster, BrokerName: brokerA, BrokerAddrs: addrs, EnableActingMaster: acting}},
	}
}

// TestShowActingMasters covers every branch of the reference's rule.
func TestShowActingMasters(t *testing.T) {
	slaves := map[int64]string{2: "s2", 1: "s1", 3: "s3"}
	cases := []struct {
		name  string
		topic string
		rd    state.TopicRouteData
		want  map[int64]string
	}{
		{"masterless read-only acting group: smallest id shown as 0", "T",
			actingRoute(maps.Clone(slaves), true, state.PermRead), map[int64]string{0: "s1", 2: "s2", 3: "s3"}},
		{"master registered: unchanged", "T",
			actingRoute(map[int64]string{0: "m", 1: "s1"}, true, state.PermRead), map[int64]string{0: "m", 1: "s1"}},
		{"acting master not enabled: unchanged", "T",
			actingRoute(maps.Clone(slaves), false, state.PermRead), slaves},
		{"queue data still writable: unchanged", "T",
			actingRoute(maps.Clone(slaves), true, state.PermRead|state.PermWrite), slaves},
		{"system member-group topic: unchanged", state.SyncBrokerMemberGroupPrefix + brokerA,
			actingRoute(maps.Clone(slaves), true, state.PermRead), slaves},
		{"empty address map: unchanged", "T",
			actingRoute(map[int64]string{}, true, state.PermRead), map[int64]string{}},
		{"no queue data of the group: unchanged", "T", func() state.TopicRouteData {
			rd := actingRoute(maps.Clone(slaves), true, state.PermRead)
			rd.QueueDatas[0].BrokerName = brokerB
			return rd
		}(), slaves},
		{"no queue data at all: unchanged", "T", func() state.TopicRouteData {
			rd := actingRoute(maps.Clone(slaves), true, state.PermRead)
			rd.QueueDatas = nil
			return rd
		}(), slaves},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			state.ShowActingMasters(tc.topic, &tc.rd)
			if got := tc.rd.BrokerDatas[0].BrokerAddrs; !maps.Equal(got, tc.want) {
				t.Fatalf("brokerAddrs = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("only the masterless group of several changes", func(t *testing.T) {
		rd := actingRoute(map[int64]string{1: "a1"}, true, state.PermRead)
		rd.QueueDatas = append(rd.QueueDatas, state.QueueData{BrokerName: brokerB, Perm: state.PermRead})
		rd.BrokerDatas = append(rd.BrokerDatas, state.BrokerData{BrokerName: brokerB, EnableActingMaster: true,
			BrokerAddrs: map[int64]string{0: "b0", 1: "b1"}})
		state.ShowActingMasters("T", &rd)
		if !maps.Equal(rd.BrokerDatas[0].BrokerAddrs, map[int64]string{0: "a1"}) ||
			!maps.Equal(rd.BrokerDatas[1].BrokerAddrs, map[int64]string{0: "b0", 1: "b1"}) {
			t.Fatalf("brokerAddrs = %v, %v", rd.BrokerDatas[0].BrokerAddrs, rd.BrokerDatas[1].BrokerAddrs)
		}
	})
}

// TestShowActingMasters_FromState drives the rule through the state: the
// master's leave wipes the write bit of an acting-master group, after which
// the route shows the slave as master; the stored table keeps id 1.
func TestShowActingMasters_FromState(t *testing.T) {
	h := newHarness(t)
	h.register(actingReg(0, masterAddr))
	h.register(actingReg(1, slaveAddr))
	h.unregister(cluster, masterAddr, brokerA, 0)
	rd := h.route("TestTopic")
	state.ShowActingMasters("TestTopic", &rd)
	if got := rd.BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{0: slaveAddr}) {
		t.Fatalf("acting view = %v, want {0: slave}", got)
	}
	if got := h.route("TestTopic").BrokerDatas[0].BrokerAddrs; !maps.Equal(got, map[int64]string{1: slaveAddr}) {
		t.Fatalf("stored route changed to %v", got)
	}
}

func TestFilterByZone(t *testing.T) {
	route := func() state.TopicRouteData {
		return state.TopicRouteData{
			QueueDatas: []state.QueueData{{BrokerName: "a"}, {BrokerName: "b"}, {BrokerName: "c"}},
			BrokerDatas: []state.BrokerData{
				{BrokerName: "a", ZoneName: "zone1", BrokerAddrs: map[int64]string{0: "a0", 1: "a1"}},
				{BrokerName: "b", ZoneName: "zone2", BrokerAddrs: map[int64]string{0: "b0"}},
				{BrokerName: "c", ZoneName: "zone2", BrokerAddrs: map[int64]string{1: "c1"}},
			},
			FilterServerTable: map[string][]string{"a0": {"f"}, "b0": {"g"}},
		}
	}
	names := func(rd state.TopicRouteData) (bds, qds []string) {
		for _, bd := range rd.BrokerDatas {
			bds = append(bds, bd.BrokerName)
		}
		for _, qd := range rd.QueueDatas {
			qds = append(qds, qd.BrokerName)
		}
		return
	}
	cases := []struct {
		zone    string
		want    string
		filters int
	}{
		{"zone1", "a,c", 1}, // c has no master: kept whatever its zone
		{"ZONE2", "b,c", 1}, // case ignored
		{"zone9", "c", 0},
	}
	for _, tc := range cases {
		rd := route()
		state.FilterByZone(&rd, tc.zone)
		bds, qds := names(rd)
		if got := strings.Join(bds, ","); got != tc.want {
			t.Errorf("zone %s: brokerDatas %s, want %s", tc.zone, got, tc.want)
		}
		if got := strings.Join(qds, ","); got != tc.want {
			t.Errorf("zone %s: queueDatas %s, want %s", tc.zone, got, tc.want)
		}
		if len(rd.FilterServerTable) != tc.filters {
			t.Errorf("zone %s: filter servers %v", tc.zone, rd.FilterServerTable)
		}
	}
}
