package cluster

import (
	"errors"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/poll"
)

// Leader-loss detection. With hashicorp/raft a follower notices a dead
// leader only when no heartbeat came for HeartbeatTimeout, and its timer is
// randomised to between one and two of those, checked against the last
// contact: 1 to 3 s with the LAN timers, before an election even starts.
// When the leader's process dies its host closes its connections at once,
// so every follower keeps an idle connection to the leader's cluster port.
// When it breaks and the port then refuses connections (the process is
// gone, not just slow), the follower shortens its own heartbeat and
// election timeouts to the shortest raft accepts (the leader lease) until a
// leader is known again. A leader that is merely paused or partitioned
// keeps its connections, and is detected by the normal timers.
const (
	leaderWatchPoll = 50 * time.Millisecond
	// leaderWatchQuick bounds how long the shortened timers stay in force
	// without a new leader.
	leaderWatchQuick = 10 * time.Second
)

// leaderWatch runs on every member for its lifetime and shortens its Raft
// timeouts while the leader's cluster port refuses connections.
type leaderWatch struct {
	raft *raft.Raft
	// dial opens an RPC connection to a member's cluster port.
	dial func(addr string) (net.Conn, error)
	// lease is the leader lease timeout Raft runs with, the lower bound
	// raft puts on the heartbeat timeout.
	lease time.Duration
	// detected counts the times the leader was found gone.
	detected *atomic.Uint64
	logger   hclog.Logger
	stop     <-chan struct{}
}

// leader returns the leader's cluster address, "" when unknown.
func (w *leaderWatch) leader() string {
	addr, _ := w.raft.LeaderWithID()
	return string(addr)
}

func (w *leaderWatch) isLeader() bool { return w.raft.State() == raft.Leader }

// run watches the leader until stop closes.
func (w *leaderWatch) run() {
	for poll.Sleep(leaderWatchPoll, w.stop) {
		addr := w.leader()
		if addr == "" || w.isLeader() {
			continue
		}
		conn, err := w.dial(addr)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				w.leaderGone(addr)
			}
			continue
		}
		if w.watchConn(conn, addr) && w.refuses(addr) {
			w.leaderGone(addr)
		}
	}
}

// watchConn blocks until conn to the leader at addr breaks (true), or the
// leader changes or the node shuts down (false).
func (w *leaderWatch) watchConn(conn net.Conn, addr string) bool {
	broke := make(chan struct{})
	go func() {
		var b [1]byte
		conn.Read(b[:]) // the RPC server never writes unasked
		close(broke)
	}()
	defer conn.Close()
	t := time.NewTicker(leaderWatchPoll)
	defer t.Stop()
	for {
		select {
		case <-broke:
			return w.leader() == addr
		case <-t.C:
			if w.leader() != addr || w.isLeader() {
				return false
			}
		case <-w.stop:
			return false
		}
	}
}

// refuses reports whether the cluster port at addr refuses connections.
func (w *leaderWatch) refuses(addr string) bool {
	conn, err := w.dial(addr)
	if err == nil {
		conn.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// leaderGone shortens this follower's Raft timeouts while the leader at
// addr is gone, and restores them once another leader is known (or after
// leaderWatchQuick).
func (w *leaderWatch) leaderGone(addr string) {
	normal := w.raft.ReloadableConfig()
	quick := normal
	if w.lease <= 0 || w.lease >= normal.HeartbeatTimeout {
		return
	}
	quick.HeartbeatTimeout, quick.ElectionTimeout = w.lease, w.lease
	if err := w.raft.ReloadConfig(quick); err != nil {
		w.logger.Warn("cannot shorten raft timeouts after losing the leader", "error", err)
		return
	}
	w.detected.Add(1)
	w.logger.Info("leader's cluster port refuses connections: shortened raft timeouts until a new leader", "leader", addr, "timeout", w.lease)
	until := time.Now().Add(leaderWatchQuick)
	for time.Now().Before(until) && poll.Sleep(leaderWatchPoll, w.stop) {
		if now := w.leader(); (now != "" && now != addr) || w.isLeader() {
			break
		}
	}
	if err := w.raft.ReloadConfig(normal); err != nil {
		w.logger.Warn("cannot restore raft timeouts", "error", err)
	}
}
