package fsm

import "github.com/raftns/raftns/fsm/state"

// applyExpireBrokers applies an expiry (State.ApplyExpireBrokers), logging
// each broker and telling the observer about each one that expires.
func (f *FSM) applyExpireBrokers(s *state.State, c *state.ExpireBrokers, index uint64) bool {
	return s.ApplyExpireBrokers(c, index, func(eb state.ExpiredBroker, reg state.BrokerRegistration, expires bool) {
		if !expires {
			f.logger.Debug("expiry skipped, broker moved on", "cluster", eb.Key.Cluster, "addr", eb.Key.Addr,
				"epoch", eb.RegEpoch, "index", index)
			return
		}
		f.logger.Info("broker expired", "cluster", eb.Key.Cluster, "addr", eb.Key.Addr,
			"broker", reg.BrokerName, "reason", c.Reason, "index", index)
		f.notify(BrokerChange{Kind: BrokerExpired, Cluster: eb.Key.Cluster, BrokerName: reg.BrokerName,
			BrokerID: reg.BrokerID, Addr: eb.Key.Addr, Reason: c.Reason, Index: index})
	})
}
