package state

import (
	"testing"
)

func TestState_Route_NeedsABrokerData(t *testing.T) {
	s := New()
	s.putGroup(BrokerData{Cluster: cluster, BrokerName: brokerA, BrokerAddrs: map[int64]string{0: masterAddr}})
	writable(s, s.topics(), "Half", true).m[brokerA] = QueueData{BrokerName: brokerA, Perm: 6}
	writable(s, s.topics(), "Half", true).m["gone"] = QueueData{BrokerName: "gone", Perm: 6}
	writable(s, s.topics(), "Orphan", true).m["gone"] = QueueData{BrokerName: "gone", Perm: 6}
	rd, ok := s.Route("Half", false)
	if !ok || len(rd.QueueDatas) != 2 || len(rd.BrokerDatas) != 1 {
		t.Fatalf("Half = %+v, %v; want 2 queue datas and 1 broker data", rd, ok)
	}
	if _, ok := s.Route("Orphan", false); ok {
		t.Fatal("a topic whose brokers have no BrokerData has a route")
	}
}
