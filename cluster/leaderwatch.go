package cluster

import (
	"errors"
	"net"
	"syscall"
	"time"

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

// watchLeader runs on every member for its lifetime.
func (n *Node) watchLeader() {
	for poll.Sleep(leaderWatchPoll, n.shutdownCh) {
		_, addr := n.Leader()
		if addr == "" || n.IsLeader() {
			continue
		}
		conn, err := n.pool.dialer.dial(addr, muxRPC, rpcDialTimeout)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				n.leaderGone(addr)
			}
			continue
		}
		if n.watchConn(conn, addr) && n.refuses(addr) {
			n.leaderGone(addr)
		}
	}
}

// watchConn blocks until conn to the leader at addr breaks (true), or the
// leader changes or the node shuts down (false).
func (n *Node) watchConn(conn net.Conn, addr string) bool {
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
			_, now := n.Leader()
			return now == addr
		case <-t.C:
			if _, now := n.Leader(); now != addr || n.IsLeader() {
				return false
			}
		case <-n.shutdownCh:
			return false
		}
	}
}

// refuses reports whether the cluster port at addr refuses connections.
func (n *Node) refuses(addr string) bool {
	conn, err := n.pool.dialer.dial(addr, muxRPC, rpcDialTimeout)
	if err == nil {
		conn.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}

// leaderGone shortens this follower's Raft timeouts while the leader at
// addr is gone, and restores them once another leader is known (or after
// leaderWatchQuick).
func (n *Node) leaderGone(addr string) {
	normal := n.raft.ReloadableConfig()
	quick := normal
	lease := n.raftLeaseTimeout()
	if lease <= 0 || lease >= normal.HeartbeatTimeout {
		return
	}
	quick.HeartbeatTimeout, quick.ElectionTimeout = lease, lease
	if err := n.raft.ReloadConfig(quick); err != nil {
		n.logger.Warn("cannot shorten raft timeouts after losing the leader", "error", err)
		return
	}
	n.stats.LeaderLossDetected.Add(1)
	n.logger.Info("leader's cluster port refuses connections: shortened raft timeouts until a new leader", "leader", addr, "timeout", lease)
	until := time.Now().Add(leaderWatchQuick)
	for time.Now().Before(until) && poll.Sleep(leaderWatchPoll, n.shutdownCh) {
		if _, now := n.Leader(); (now != "" && now != addr) || n.IsLeader() {
			break
		}
	}
	if err := n.raft.ReloadConfig(normal); err != nil {
		n.logger.Warn("cannot restore raft timeouts", "error", err)
	}
}

// raftLeaseTimeout is the leader lease timeout Raft runs with, the lower
// bound raft puts on the heartbeat timeout.
func (n *Node) raftLeaseTimeout() time.Duration {
	return n.cfg.raftConfig().LeaderLeaseTimeout
}
