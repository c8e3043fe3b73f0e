package fsm

import "github.com/raftns/raftns/fsm/state"

// applyUnregisterBroker applies UNREGISTER_BROKER
// (State.ApplyUnregisterBroker), logs it and tells the observer.
func (f *FSM) applyUnregisterBroker(s *state.State, c *state.UnregisterBroker, index uint64) bool {
	changed := s.ApplyUnregisterBroker(c, index)
	if changed {
		f.logger.Info("broker unregistered", "cluster", c.ClusterName, "broker", c.BrokerName,
			"id", c.BrokerID, "addr", c.BrokerAddr)
		f.notify(BrokerChange{Kind: BrokerUnregistered, Cluster: c.ClusterName, BrokerName: c.BrokerName,
			BrokerID: c.BrokerID, Addr: c.BrokerAddr})
	}
	return changed
}
