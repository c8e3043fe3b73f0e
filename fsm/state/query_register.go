package state

// WouldChange reports whether applying cmd to s would change any replicated
// state other than the registration's RegEpoch and RegisteredAtMillis
// (FSM.WouldChange says which); it is computed from the same plan
// ApplyRegisterBroker executes.
func (s *State) WouldChange(cmd *RegisterBroker) bool {
	return s.NewLiveEntry(cmd) || planRegister(s, cmd).changes()
}

// NewLiveEntry reports, without building the plan, the usual reason a
// registration changes the state: it is not stale and brings a live entry
// the broker did not have or a new DataVersion, so the plan's live entry
// changes (planLive). False means only that the plan must be asked.
func (s *State) NewLiveEntry(c *RegisterBroker) bool {
	if live, ok := s.regs()[c.Key()]; ok && live.DataVersion.Equal(c.DataVersion) {
		return false
	}
	// isStale, read from the stored group: startGroup leaves the address
	// under c.BrokerID as it was.
	if g, ok := s.brokers()[c.BrokerName]; ok {
		if cur, ok := g.data.BrokerAddrs[c.BrokerID]; ok && cur != c.BrokerAddr {
			holder, ok := s.regs()[BrokerKey{Cluster: c.ClusterName, Addr: cur}]
			if ok && holder.DataVersion.StateVersion > c.DataVersion.StateVersion {
				return false
			}
		}
	}
	return true
}
