package state

import "slices"

// MinBrokerIDNotice is a NOTIFY_MIN_BROKER_ID_CHANGE the leader still has to
// send: a group's smallest broker id changed the way the 5.x NameServer
// reports it (a registration below the group's smallest id, or the
// unregistration or expiry of the smallest id of an acting-master group that
// keeps other members). Apply only records it; the leader sends it and
// clears it with AckMinBrokerIDNotice, first clearing, then sending, so a
// notice is sent at most once whatever leader changes happen in between.
// A group holds at most one pending notice: a newer change replaces it.
type MinBrokerIDNotice struct {
	BrokerName    string
	MinBrokerID   int64
	MinBrokerAddr string
	// OfflineBrokerAddr is the address that left; empty after a registration.
	OfflineBrokerAddr string
	// HaBrokerAddr is the registering broker's HA address; empty after a leave.
	HaBrokerAddr string
	// Targets are the addresses to notify, ordered by broker id.
	Targets []string
	// Index is the log index of the change; the ack names it.
	Index uint64
}

// ApplyAckMinBrokerIDNotice clears a notice that is still current.
func (s *State) ApplyAckMinBrokerIDNotice(c *AckMinBrokerIDNotice) (AckResult, bool) {
	n, ok := s.minIDNotices()[c.BrokerName]
	if !ok || n.Index != c.Index {
		return AckResult{}, false
	}
	delete(s.minIDNotices(), c.BrokerName)
	return AckResult{Cleared: true}, true
}

// noteRegistrationMinID records the notice of a registration whose id is
// below the group's smallest id before it (prevMin, with hadMembers false
// for an empty or new group, which never notifies). Like the reference, the
// members other than the new smallest id are told, or the only one.
func (s *State) noteRegistrationMinID(c *RegisterBroker, hadMembers bool, prevMin int64, addrs map[int64]string, index uint64) {
	if !hadMembers || c.BrokerID >= prevMin {
		return
	}
	minID := minID(addrs)
	var targets []string
	for _, id := range sortedIDs(addrs) {
		if id != minID || len(addrs) == 1 {
			targets = append(targets, addrs[id])
		}
	}
	s.minIDNotices()[c.BrokerName] = MinBrokerIDNotice{BrokerName: c.BrokerName, MinBrokerID: minID,
		MinBrokerAddr: addrs[minID], HaBrokerAddr: c.HaServerAddr, Targets: targets, Index: index}
}

// noteLeaveMinID records, after a batch of unregistrations, the notices of
// the groups that lost their smallest id (offline maps each to the address
// that left last) and still have members, for acting-master groups only, as
// the reference does. Every remaining member is told.
func (s *State) noteLeaveMinID(offline map[string]string, index uint64) (noted bool) {
	for _, name := range sortedKeys(offline) {
		g, ok := s.brokers()[name]
		if !ok || !g.data.EnableActingMaster || len(g.data.BrokerAddrs) == 0 {
			continue
		}
		addrs := g.data.BrokerAddrs
		minID := minID(addrs)
		var targets []string
		for _, id := range sortedIDs(addrs) {
			targets = append(targets, addrs[id])
		}
		s.minIDNotices()[name] = MinBrokerIDNotice{BrokerName: name, MinBrokerID: minID,
			MinBrokerAddr: addrs[minID], OfflineBrokerAddr: offline[name], Targets: targets, Index: index}
		noted = true
	}
	return noted
}

// PendingMinBrokerIDNotices returns the notices not yet acknowledged, by
// broker name.
func (s *State) PendingMinBrokerIDNotices() []MinBrokerIDNotice {
	out := make([]MinBrokerIDNotice, 0, len(s.minIDNotices()))
	for _, name := range sortedKeys(s.minIDNotices()) {
		n := s.minIDNotices()[name]
		n.Targets = slices.Clone(n.Targets)
		out = append(out, n)
	}
	return out
}
