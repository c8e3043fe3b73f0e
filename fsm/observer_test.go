package fsm

import "github.com/raftns/raftns/fsm/state"

import "testing"

type recordingObserver struct{ changes []BrokerChange }

func (r *recordingObserver) BrokerChanged(c BrokerChange) { r.changes = append(r.changes, c) }

func TestObserver_HearsNewRegistrationsUnregistrationsAndExpiries(t *testing.T) {
	h := newHarness(t)
	obs := &recordingObserver{}
	h.f.SetObserver(obs)

	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	h.register(reg(brokerA, 0, masterAddr, 2, "T1", "T2")) // a change, not a new broker
	h.register(reg(brokerA, 1, slaveAddr, 1, "T1"))
	h.unregister(cluster, slaveAddr, brokerA, 1)
	h.unregister(cluster, slaveAddr, brokerA, 1) // already gone: nothing happens
	h.apply(ExpireBrokersType, &state.ExpireBrokers{Reason: "timeout", Brokers: []state.ExpiredBroker{
		{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: 999}, // stale epoch: skipped
	}})
	h.apply(ExpireBrokersType, &state.ExpireBrokers{Reason: "timeout", Brokers: []state.ExpiredBroker{
		{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: 2},
	}})

	want := []BrokerChange{
		{Kind: BrokerRegistered, Cluster: cluster, BrokerName: brokerA, BrokerID: 0, Addr: masterAddr, Index: 1},
		{Kind: BrokerRegistered, Cluster: cluster, BrokerName: brokerA, BrokerID: 1, Addr: slaveAddr, Index: 3},
		{Kind: BrokerUnregistered, Cluster: cluster, BrokerName: brokerA, BrokerID: 1, Addr: slaveAddr},
		{Kind: BrokerExpired, Cluster: cluster, BrokerName: brokerA, BrokerID: 0, Addr: masterAddr, Reason: "timeout", Index: 7},
	}
	if len(obs.changes) != len(want) {
		t.Fatalf("observer heard %d changes, want %d: %+v", len(obs.changes), len(want), obs.changes)
	}
	for i := range want {
		if obs.changes[i] != want[i] {
			t.Fatalf("change %d = %+v, want %+v", i, obs.changes[i], want[i])
		}
	}
}
