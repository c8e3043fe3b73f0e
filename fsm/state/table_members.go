package state

import "strings"

// recMember is the snapshot record of one member (Member).
const recMember uint8 = 10

// membersTable is the member directory, by Raft id.
type membersTable = keyedTable[string, Member]

var membersSlot = slotOf[*membersTable]()

// members is the member directory of s.
func (s *State) members() map[string]Member { return s.tables[membersSlot].(*membersTable).m }

func newMembers() table {
	return &membersTable{m: map[string]Member{}, rec: recMember, what: "member",
		key: func(m *Member) string { return m.ID }, order: strings.Compare}
}
