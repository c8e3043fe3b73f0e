package state

// MemberStanding is what the cluster knows of a member beyond its
// addresses (docs/operators/operations.md, "When a member loses its disk"): the
// identity of the storage it was admitted with, and whether an operator
// keeps it a non-voter.
type MemberStanding struct {
	ID string
	// StorageID is the random identity of the member's data directory the
	// leader admitted it with. A member that returns with another one
	// lost its disk: it votes again only once the leader has recorded the
	// new identity.
	StorageID string
	// NonVoter keeps the member a non-voter: the leader never promotes it
	// (raftnsctl peers add --non-voter, peers demote).
	NonVoter bool
}

// SetMemberStanding records a member's standing. Only the leader proposes
// it; removing the member from the directory (RemoveMember) forgets it.
type SetMemberStanding struct {
	Standing MemberStanding
}

// ApplySetMemberStanding records a standing; one without an id, or one
// already so, changes nothing.
func (s *State) ApplySetMemberStanding(c *SetMemberStanding) bool {
	id := c.Standing.ID
	if cur, ok := s.standings()[id]; id == "" || ok && cur == c.Standing {
		return false
	}
	s.standings()[id] = c.Standing
	return true
}

// MemberStanding returns the standing recorded for the member id.
func (s *State) MemberStanding(id string) (MemberStanding, bool) {
	st, ok := s.standings()[id]
	return st, ok
}

// MemberStandings returns every recorded standing, sorted by id.
func (s *State) MemberStandings() []MemberStanding {
	out := make([]MemberStanding, 0, len(s.standings()))
	for _, id := range sortedKeys(s.standings()) {
		out = append(out, s.standings()[id])
	}
	return out
}
