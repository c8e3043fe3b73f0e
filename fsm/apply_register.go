package fsm

import "github.com/raftns/raftns/fsm/state"

// applyRegisterBroker applies a registration (State.ApplyRegisterBroker)
// and logs it; a new broker is told to the observer.
func (f *FSM) applyRegisterBroker(s *state.State, c *state.RegisterBroker, index uint64) (state.RegisterResult, bool) {
	out := s.ApplyRegisterBroker(c, index)
	if out.Stale {
		f.logger.Warn("stale broker registration ignored", "cluster", c.ClusterName, "broker", c.BrokerName,
			"id", c.BrokerID, "addr", c.BrokerAddr, "stateVersion", c.DataVersion.StateVersion, "index", index)
		return out.Result, out.Changed
	}
	if out.Dropped > 0 {
		f.logger.Info("topics dropped by registration", "broker", c.BrokerName, "topics", out.Dropped, "index", index)
	}
	if out.NewBroker {
		f.logger.Info("new broker registered", "cluster", c.ClusterName, "broker", c.BrokerName,
			"id", c.BrokerID, "addr", c.BrokerAddr, "haServer", c.HaServerAddr, "index", index)
		f.notify(BrokerChange{Kind: BrokerRegistered, Cluster: c.ClusterName, BrokerName: c.BrokerName,
			BrokerID: c.BrokerID, Addr: c.BrokerAddr, Index: index})
	}
	return out.Result, out.Changed
}
