package state

import "strings"

// recMinIDNotice is the snapshot record of one pending notice
// (MinBrokerIDNotice; absent from older snapshots).
const recMinIDNotice uint8 = 11

// minIDNoticesTable holds the NOTIFY_MIN_BROKER_ID_CHANGE notices the
// leader has not sent yet, by broker name.
type minIDNoticesTable = keyedTable[string, MinBrokerIDNotice]

var minIDNoticesSlot = slotOf[*minIDNoticesTable]()

// minIDNotices is the pending-notice table of s.
func (s *State) minIDNotices() map[string]MinBrokerIDNotice {
	return s.tables[minIDNoticesSlot].(*minIDNoticesTable).m
}

func newMinIDNotices() table {
	return &minIDNoticesTable{m: map[string]MinBrokerIDNotice{}, rec: recMinIDNotice, what: "min broker id notice",
		key: func(n *MinBrokerIDNotice) string { return n.BrokerName }, order: strings.Compare}
}
