package state

// ApplySetMember adds or replaces a member of the directory.
func (s *State) ApplySetMember(c *SetMember) bool {
	if cur, ok := s.members()[c.Member.ID]; ok && cur == c.Member {
		return false
	}
	s.members()[c.Member.ID] = c.Member
	return true
}

// ApplyRemoveMember removes a member, ends its drain and forgets its
// standing; an unknown id changes nothing.
func (s *State) ApplyRemoveMember(c *RemoveMember) bool {
	_, listed := s.members()[c.ID]
	_, draining := s.draining()[c.ID]
	delete(s.members(), c.ID)
	_, standing := s.standings()[c.ID]
	delete(s.draining(), c.ID)
	delete(s.standings(), c.ID)
	return listed || draining || standing
}
