package namesrv

import (
	"sync"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/remoting"
)

// brokerConns remembers the connection each broker last registered on, like
// the reference's BrokerLiveInfo channel: only the close of that connection
// counts as the broker leaving. The cluster node hears of every change.
type brokerConns struct {
	node   Cluster
	mu     sync.Mutex
	byKey  map[state.BrokerKey]uint64
	byConn map[uint64]map[state.BrokerKey]struct{}
}

func newBrokerConns(node Cluster) *brokerConns {
	return &brokerConns{node: node, byKey: map[state.BrokerKey]uint64{}, byConn: map[uint64]map[state.BrokerKey]struct{}{}}
}

// attach records that key registered on c; fresh is true when c is a
// connection the broker had not registered on before.
func (b *brokerConns) attach(key state.BrokerKey, c *remoting.Conn) (fresh bool) {
	id := c.ID()
	b.mu.Lock()
	old, had := b.byKey[key]
	if had && old == id {
		b.mu.Unlock()
		return false
	}
	b.byKey[key] = id
	if b.byConn[id] == nil {
		b.byConn[id] = map[state.BrokerKey]struct{}{}
	}
	b.byConn[id][key] = struct{}{}
	if had {
		delete(b.byConn[old], key)
	}
	b.mu.Unlock()
	b.node.BrokerConnected(key)
	if had {
		b.node.BrokerDisconnected(key)
	}
	return true
}

// detach forgets key's connection after it unregistered.
func (b *brokerConns) detach(key state.BrokerKey, c *remoting.Conn) {
	b.mu.Lock()
	id, had := b.byKey[key]
	if had {
		delete(b.byKey, key)
		delete(b.byConn[id], key)
	}
	b.mu.Unlock()
	if had {
		b.node.BrokerDisconnected(key)
	}
}

// connClosed runs when any connection closes (close, error or idle).
func (b *brokerConns) connClosed(c *remoting.Conn) {
	id := c.ID()
	b.mu.Lock()
	keys := b.byConn[id]
	delete(b.byConn, id)
	for k := range keys {
		delete(b.byKey, k)
	}
	b.mu.Unlock()
	for k := range keys {
		b.node.BrokerDisconnected(k)
	}
}

// isBrokerConn reports whether some broker registered on c.
func (b *brokerConns) isBrokerConn(c *remoting.Conn) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.byConn[c.ID()]) > 0
}
