package cluster

import (
	"context"
	"sort"
	"sync"

	"github.com/raftns/raftns/fsm"
)

// localHeartbeats collects what this member heard from brokers: brokers that
// registered unchanged or sent heartbeats since the last batch, brokers with
// a live connection here, and connections that closed. A follower sends it to
// the leader once per batch interval; on the leader it feeds the tracker
// directly.
type localHeartbeats struct {
	mu      sync.Mutex
	touched map[fsm.BrokerKey]struct{}
	held    map[fsm.BrokerKey]int
	closed  map[fsm.BrokerKey]struct{}
}

func newLocalHeartbeats() localHeartbeats {
	return localHeartbeats{
		touched: map[fsm.BrokerKey]struct{}{},
		held:    map[fsm.BrokerKey]int{},
		closed:  map[fsm.BrokerKey]struct{}{},
	}
}

func (l *localHeartbeats) heldKeys() []fsm.BrokerKey {
	l.mu.Lock()
	defer l.mu.Unlock()
	return sortedKeys(l.held)
}

// drain takes the batch to send and resets touched and closed.
func (l *localHeartbeats) drain() (touched, held, closed []fsm.BrokerKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	touched, closed = sortedKeys(l.touched), sortedKeys(l.closed)
	held = sortedKeys(l.held)
	clear(l.touched)
	clear(l.closed)
	return touched, held, closed
}

// restore puts back a batch that could not be delivered.
func (l *localHeartbeats) restore(touched, closed []fsm.BrokerKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range touched {
		l.touched[k] = struct{}{}
	}
	for _, k := range closed {
		if l.held[k] == 0 {
			l.closed[k] = struct{}{}
		}
	}
}

func sortedKeys[V any](m map[fsm.BrokerKey]V) []fsm.BrokerKey {
	out := make([]fsm.BrokerKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cluster != out[j].Cluster {
			return out[i].Cluster < out[j].Cluster
		}
		return out[i].Addr < out[j].Addr
	})
	return out
}

// heard records a sign of life from a broker: the leader touches its
// tracker, a follower queues the broker for its next batch.
func (n *Node) heard(key fsm.BrokerKey) {
	if n.leaderReady.Load() {
		n.trackerMu.Lock()
		if n.tracker != nil {
			n.tracker.touch(key)
			n.trackerMu.Unlock()
			return
		}
		n.trackerMu.Unlock()
	}
	n.local.mu.Lock()
	n.local.touched[key] = struct{}{}
	n.local.mu.Unlock()
}

// BrokerConnected records that the broker registered on a connection to
// this member. Calls pair with BrokerDisconnected; a broker may hold several
// connections.
func (n *Node) BrokerConnected(key fsm.BrokerKey) {
	n.local.mu.Lock()
	n.local.held[key]++
	delete(n.local.closed, key)
	n.local.mu.Unlock()
}

// BrokerDisconnected records that a connection the broker registered on
// closed. When it was the broker's last connection here, the leader learns
// of it and expires the broker after the grace unless a sign of life comes.
func (n *Node) BrokerDisconnected(key fsm.BrokerKey) {
	n.local.mu.Lock()
	n.local.held[key]--
	last := n.local.held[key] <= 0
	if last {
		delete(n.local.held, key)
		n.local.closed[key] = struct{}{}
	}
	n.local.mu.Unlock()
	if !last || !n.leaderReady.Load() {
		return
	}
	n.trackerMu.Lock()
	if n.tracker != nil {
		n.tracker.connClosed(n.cfg.ID, key)
		n.local.mu.Lock()
		delete(n.local.closed, key)
		n.local.mu.Unlock()
	}
	n.trackerMu.Unlock()
	n.requestScan(n.cfg.ConnCloseGrace)
}

// sendHeartbeats delivers the follower's batch to the leader every interval.
func (n *Node) sendHeartbeats() {
	for n.sleepOrShutdown(n.cfg.HeartbeatBatchInterval) {
		if n.IsLeader() {
			n.feedOwnBatch()
			continue
		}
		_, leaderAddr := n.Leader()
		if leaderAddr == "" {
			continue
		}
		touched, held, closed := n.local.drain()
		args := &HeartbeatArgs{From: n.cfg.ID, Touched: touched, Held: held, Closed: closed}
		ctx, cancel := context.WithTimeout(context.Background(), n.cfg.HeartbeatBatchInterval)
		var reply LeaderReply
		err := n.pool.call(ctx, leaderAddr, "Heartbeats", args, &reply, false)
		cancel()
		if err == nil {
			err = reply.err()
		}
		if err != nil {
			n.local.restore(touched, closed)
			n.logger.Debug("heartbeat batch not delivered", "leader", leaderAddr, "error", err)
		}
	}
}

// feedOwnBatch moves what the leader queued before it was ready into its
// tracker.
func (n *Node) feedOwnBatch() {
	if !n.leaderReady.Load() {
		return
	}
	touched, held, closed := n.local.drain()
	n.receiveHeartbeats(&HeartbeatArgs{From: n.cfg.ID, Touched: touched, Held: held, Closed: closed})
}

// receiveHeartbeats takes a batch into the tracker; false if this member is
// not a ready leader.
func (n *Node) receiveHeartbeats(args *HeartbeatArgs) bool {
	if !n.leaderReady.Load() {
		return false
	}
	n.trackerMu.Lock()
	defer n.trackerMu.Unlock()
	if n.tracker == nil {
		return false
	}
	for _, k := range args.Touched {
		n.tracker.touch(k)
	}
	n.tracker.setHeld(args.From, args.Held)
	for _, k := range args.Closed {
		n.tracker.connClosed(args.From, k)
	}
	if len(args.Closed) > 0 {
		n.requestScan(n.cfg.ConnCloseGrace)
	}
	return true
}
