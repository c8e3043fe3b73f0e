package state

// recRegistration is the snapshot record of one live entry
// (BrokerRegistration).
const recRegistration uint8 = 5

// registrationsTable is the replicated part of brokerLiveTable.
type registrationsTable = keyedTable[BrokerKey, BrokerRegistration]

var registrationsSlot = slotOf[*registrationsTable]()

// regs is the live-entry table of s.
func (s *State) regs() map[BrokerKey]BrokerRegistration {
	return s.tables[registrationsSlot].(*registrationsTable).m
}

func newRegistrations() table {
	return &registrationsTable{m: map[BrokerKey]BrokerRegistration{}, rec: recRegistration, what: "registration",
		key: func(r *BrokerRegistration) BrokerKey { return r.Key }, order: compareBrokerKeys}
}
