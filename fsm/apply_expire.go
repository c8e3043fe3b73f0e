package fsm

import "slices"

// applyExpireBrokers removes the brokers the leader found silent, each only
// if its live entry still carries the epoch the leader saw: a broker that
// re-registered since then survives. It follows the 5.x channel-destroy path
// (RouteInfoManager.onChannelDestroy / setupUnRegisterRequest): find the
// broker's group and id in the same cluster and unregister it like
// UNREGISTER_BROKER, all in one batch.
func (f *FSM) applyExpireBrokers(s *state, c *ExpireBrokers, index uint64) bool {
	changed := false
	var reqs []UnregisterBroker
	for _, eb := range c.Brokers {
		reg, ok := s.regs[eb.Key]
		if !ok || reg.RegEpoch != eb.RegEpoch {
			f.logger.Debug("expiry skipped, broker moved on", "cluster", eb.Key.Cluster, "addr", eb.Key.Addr,
				"epoch", eb.RegEpoch, "index", index)
			continue
		}
		f.logger.Info("broker expired", "cluster", eb.Key.Cluster, "addr", eb.Key.Addr,
			"broker", reg.BrokerName, "reason", c.Reason, "index", index)
		f.notify(BrokerChange{Kind: BrokerExpired, Cluster: eb.Key.Cluster, BrokerName: reg.BrokerName,
			BrokerID: reg.BrokerID, Addr: eb.Key.Addr, Reason: c.Reason, Index: index})
		req, found := s.lookupBroker(eb.Key)
		if !found {
			// DEVIATION: the reference does nothing when no group of the
			// cluster lists the address (the live entry then lingers and is
			// "expired" again on every scan). Dropping the live and filter
			// entries is what its unregister would have done first.
			changed = s.dropLive(eb.Key) || changed
			continue
		}
		reqs = append(reqs, req)
	}
	return s.unregisterBatch(reqs, index) || changed
}

// lookupBroker finds the group and id that list key's address among the
// groups of key's cluster: the first by broker name, then by id.
func (s *state) lookupBroker(key BrokerKey) (UnregisterBroker, bool) {
	for _, name := range sortedKeys(s.brokers) {
		bd := s.brokers[name].data
		if bd.Cluster != key.Cluster {
			continue
		}
		ids := sortedIDs(bd.BrokerAddrs)
		if i := slices.IndexFunc(ids, func(id int64) bool { return bd.BrokerAddrs[id] == key.Addr }); i >= 0 {
			return UnregisterBroker{ClusterName: key.Cluster, BrokerAddr: key.Addr, BrokerName: name, BrokerID: ids[i]}, true
		}
	}
	return UnregisterBroker{}, false
}
