package state

import "slices"

// lookupBroker finds the group and id that list key's address among the
// groups of key's cluster: the first by broker name, then by id.
func (s *State) lookupBroker(key BrokerKey) (UnregisterBroker, bool) {
	for _, name := range sortedKeys(s.brokers()) {
		bd := s.brokers()[name].data
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

// ApplyExpireBrokers removes the brokers the leader found silent, each only
// if its live entry still carries the epoch the leader saw: a broker that
// re-registered since then survives. It follows the 5.x channel-destroy path
// (RouteInfoManager.onChannelDestroy / setupUnRegisterRequest): find the
// broker's group and id in the same cluster and unregister it like
// UNREGISTER_BROKER, all in one batch. seen hears each broker in order, with
// its live entry and whether it expires (false: it moved on).
func (s *State) ApplyExpireBrokers(c *ExpireBrokers, index uint64, seen func(eb ExpiredBroker, reg BrokerRegistration, expires bool)) bool {
	changed := false
	var reqs []UnregisterBroker
	for _, eb := range c.Brokers {
		reg, ok := s.regs()[eb.Key]
		if !ok || reg.RegEpoch != eb.RegEpoch {
			seen(eb, reg, false)
			continue
		}
		seen(eb, reg, true)
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
