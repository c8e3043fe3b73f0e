package state

// DrainingMember is a member an operator is removing (docs/operators/operations.md,
// "Adding and removing members without touching brokers and clients").
// While it drains, every member leaves it out of the address-service answer
// and it keeps serving, so that brokers and clients that refresh their
// name-server list move away from it; when the drain time is over the
// leader removes it from the Raft configuration.
type DrainingMember struct {
	ID string
	// DrainMillis is how long the member keeps serving before it is
	// removed.
	DrainMillis int64
	// SinceMillis is the proposing leader's wall clock when the drain
	// began. That leader times the drain on its monotonic clock; a new
	// leader takes what is left of it by this start, at most DrainMillis.
	SinceMillis int64
	// Force removes the member at the end of the drain even when the
	// voters left could not form a quorum without it.
	Force bool
}

// SetMemberDraining starts the drain of a member (Draining) or ends it.
// Only the leader proposes it; removing the member from the directory
// (RemoveMember) ends its drain too.
type SetMemberDraining struct {
	Member   DrainingMember
	Draining bool
}

// ApplySetMemberDraining records or clears a drain; one without an id, or
// one that is already so, changes nothing.
func (s *State) ApplySetMemberDraining(c *SetMemberDraining) bool {
	id := c.Member.ID
	cur, ok := s.draining()[id]
	switch {
	case id == "":
		return false
	case !c.Draining:
		if !ok {
			return false
		}
		delete(s.draining(), id)
		return true
	case ok && cur == c.Member:
		return false
	}
	s.draining()[id] = c.Member
	return true
}

// DrainingMembers returns the members being drained, sorted by id.
func (s *State) DrainingMembers() []DrainingMember {
	out := make([]DrainingMember, 0, len(s.draining()))
	for _, id := range sortedKeys(s.draining()) {
		out = append(out, s.draining()[id])
	}
	return out
}

// Draining reports whether the member id is being drained, and how.
func (s *State) Draining(id string) (DrainingMember, bool) {
	d, ok := s.draining()[id]
	return d, ok
}
