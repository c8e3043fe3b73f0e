package fsm

// applySetMember adds or replaces a member of the directory.
func (s *state) applySetMember(c *SetMember) bool {
	if cur, ok := s.members[c.Member.ID]; ok && cur == c.Member {
		return false
	}
	s.members[c.Member.ID] = c.Member
	return true
}

// applyRemoveMember removes a member; an unknown id changes nothing.
func (s *state) applyRemoveMember(c *RemoveMember) bool {
	if _, ok := s.members[c.ID]; !ok {
		return false
	}
	delete(s.members, c.ID)
	return true
}
