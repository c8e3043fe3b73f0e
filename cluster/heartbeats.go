package cluster

import (
	"context"
	"strconv"
	"time"

	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/internal/poll"
)

// The controller's view of replicas, which the lessor keeps.
type (
	ReplicaKey          = liveness.ReplicaKey
	ControllerHeartbeat = liveness.ControllerHeartbeat
	ReplicaLive         = liveness.ReplicaLive
)

// heard records a sign of life from a broker.
func (n *Node) heard(key fsm.BrokerKey) { n.lessor.Heard(key, liveness.ConnNone) }

// BrokerConnected records that the broker registered on a connection to
// this member. Calls pair with BrokerDisconnected; a broker may hold several
// connections.
func (n *Node) BrokerConnected(key fsm.BrokerKey) { n.lessor.Heard(key, liveness.ConnOpened) }

// BrokerDisconnected records that a connection the broker registered on
// closed. When it was the broker's last connection here, the leader learns
// of it and expires the broker after the grace unless a sign of life comes.
func (n *Node) BrokerDisconnected(key fsm.BrokerKey) {
	if n.lessor.Heard(key, liveness.ConnClosed) {
		n.expiry.RequestScan(n.cfg.ConnCloseGrace)
		n.offices.connClosed()
	}
}

// sendHeartbeats delivers this member's batch to the leader every interval;
// on the leader the lessor takes what it hears directly. A new leader gets
// a batch at once and an undelivered batch is retried soon, so a leader
// that just took office hears every member's connections quickly
// (docs/controller.md, "Liveness").
func (n *Node) sendHeartbeats() {
	step := min(n.cfg.HeartbeatBatchInterval, heartbeatRetryStep)
	var sentAt time.Time
	var sentTo string
	delivered := true
	for poll.Sleep(step, n.shutdownCh) {
		_, leaderAddr := n.Leader()
		if n.IsLeader() || leaderAddr == "" {
			continue
		}
		if delivered && leaderAddr == sentTo && time.Since(sentAt) < n.cfg.HeartbeatBatchInterval {
			continue
		}
		batch := n.lessor.Drain()
		ctx, cancel := context.WithTimeout(context.Background(), n.cfg.HeartbeatBatchInterval)
		var reply LeaderReply
		err := n.pool.call(ctx, leaderAddr, "Heartbeats", batch, &reply, false)
		cancel()
		if err == nil {
			err = replyErr(&reply)
		}
		sentAt, sentTo, delivered = time.Now(), leaderAddr, err == nil
		if err == nil {
			n.noteLeaderCommit(reply.Result)
		}
		if err != nil {
			n.lessor.Restore(batch)
			n.logger.Debug("heartbeat batch not delivered", "leader", leaderAddr, "error", err)
		}
	}
}

// heartbeatRetryStep is how soon a batch goes to a new leader, or again
// after it was not delivered.
const heartbeatRetryStep = 100 * time.Millisecond

// receiveHeartbeats takes a follower's batch into the lessor; false if this
// member is not the leader in office.
func (n *Node) receiveHeartbeats(args *HeartbeatArgs) bool {
	accepted, closed := n.lessor.Receive(args)
	if closed {
		n.expiry.RequestScan(n.cfg.ConnCloseGrace)
	}
	if closed || len(args.RecentlyClosed) > 0 {
		n.offices.connClosed()
	}
	return accepted
}

// commitSample is a commit index the leader reported, and when;
// unreported when the leader answered without one (an older version).
type commitSample struct {
	index      uint64
	at         time.Time
	unreported bool
}

// noteLeaderCommit keeps the commit index the leader put in its answer to a
// heartbeat batch.
func (n *Node) noteLeaderCommit(result []byte) {
	if len(result) == 0 {
		n.leaderCommit.Store(&commitSample{at: time.Now(), unreported: true})
		return
	}
	if idx, err := strconv.ParseUint(string(result), 10, 64); err == nil {
		n.leaderCommit.Store(&commitSample{index: idx, at: time.Now()})
	}
}
