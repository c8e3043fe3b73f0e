package state

import "strings"

// recMemberStanding is the snapshot record of one member's standing
// (MemberStanding).
const recMemberStanding uint8 = 18

// standingsTable holds the members' storage identities and roles, by Raft
// id (member_standing.go).
type standingsTable = keyedTable[string, MemberStanding]

var standingsSlot = slotOf[*standingsTable]()

// standings is the standings table of s.
func (s *State) standings() map[string]MemberStanding {
	return s.tables[standingsSlot].(*standingsTable).m
}

func newStandings() table {
	return &standingsTable{m: map[string]MemberStanding{}, rec: recMemberStanding, what: "member standing",
		key: func(st *MemberStanding) string { return st.ID }, order: strings.Compare, idRequired: true}
}
