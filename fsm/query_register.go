package fsm

// WouldChange reports whether applying cmd now would change any replicated
// state other than the registration's RegEpoch and RegisteredAtMillis:
// cluster set, group (new group, id -> address incl. the slave-to-master
// switch, zoneName, enableActingMaster), live entry (new broker, HA address,
// DataVersion, heartbeat timeout), filter servers, queue data (including
// topics that lack QueueData for this broker) and mapping infos. A false
// answer lets the server treat the registration as a heartbeat that writes
// no log entry. It is computed from the same plan Apply executes.
func (f *FSM) WouldChange(cmd *RegisterBroker) bool {
	return read(f, func(s *state) bool { return newLiveEntry(s, cmd) || planRegister(s, cmd).changes() })
}

// newLiveEntry reports, without building the plan, the usual reason a
// registration changes the state: it is not stale and brings a live entry
// the broker did not have or a new DataVersion, so the plan's live entry
// changes (planLive). False means only that the plan must be asked.
func newLiveEntry(s *state, c *RegisterBroker) bool {
	if live, ok := s.regs[c.Key()]; ok && live.DataVersion.Equal(c.DataVersion) {
		return false
	}
	// isStale, read from the stored group: startGroup leaves the address
	// under c.BrokerID as it was.
	if g, ok := s.brokers[c.BrokerName]; ok {
		if cur, ok := g.data.BrokerAddrs[c.BrokerID]; ok && cur != c.BrokerAddr {
			holder, ok := s.regs[BrokerKey{Cluster: c.ClusterName, Addr: cur}]
			if ok && holder.DataVersion.StateVersion > c.DataVersion.StateVersion {
				return false
			}
		}
	}
	return true
}

// RegisterResult returns the answer Apply would give cmd against the current
// state, without applying it.
func (f *FSM) RegisterResult(cmd *RegisterBroker) RegisterResult {
	return read(f, func(s *state) RegisterResult { return registerResult(s, planRegister(s, cmd)) })
}
