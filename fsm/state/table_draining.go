package state

import "strings"

// recDrainingMember is the snapshot record of one draining member
// (DrainingMember). It is written only while a member drains, so the
// snapshots of a cluster that never drained one are what an older release
// writes.
const recDrainingMember uint8 = 15

// drainingTable holds the members being removed, by Raft id.
type drainingTable = keyedTable[string, DrainingMember]

var drainingSlot = slotOf[*drainingTable]()

// draining is the table of draining members of s.
func (s *State) draining() map[string]DrainingMember {
	return s.tables[drainingSlot].(*drainingTable).m
}

func newDraining() table {
	return &drainingTable{m: map[string]DrainingMember{}, rec: recDrainingMember, what: "draining member",
		key: func(d *DrainingMember) string { return d.ID }, order: strings.Compare, idRequired: true}
}
