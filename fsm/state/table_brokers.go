package state

import "maps"

// recBroker is the snapshot record of one broker group (BrokerData).
const recBroker uint8 = 3

// brokersTable is brokerAddrTable: brokerName -> BrokerData, each with the
// state version that may write it.
type brokersTable struct{ m map[string]*brokerGroup }

// brokerGroup is a BrokerData with the state version that may write it.
type brokerGroup struct {
	owner *version
	data  BrokerData
}

var brokersSlot = slotOf[*brokersTable]()

// brokers is the broker groups table of s.
func (s *State) brokers() map[string]*brokerGroup { return s.tables[brokersSlot].(*brokersTable).m }

func newBrokers() table { return &brokersTable{m: map[string]*brokerGroup{}} }

func (t *brokersTable) thaw() table { return &brokersTable{m: maps.Clone(t.m)} }

func (t *brokersTable) walk(emit emitFunc) error {
	for _, name := range sortedKeys(t.m) {
		bd := t.m[name].data
		if err := emit(recBroker, &bd); err != nil {
			return err
		}
	}
	return nil
}

func (t *brokersTable) restore(rs *restorer, _ uint8, payload []byte) error {
	bd, err := decode[BrokerData](payload)
	if err != nil {
		return err
	}
	if _, ok := t.m[bd.BrokerName]; ok {
		return duplicate("broker", bd.BrokerName)
	}
	rs.s.putGroup(cloneBrokerData(*bd))
	return nil
}
