package cluster

import (
	"context"
	"fmt"
	"time"
)

// catchUpTimeout bounds asking the leader for its commit index.
const catchUpTimeout = 500 * time.Millisecond

// catchUp is the readiness monitor's proof that a follower holds what the
// leader had committed. A follower's own commit index only moves when the
// leader sends it entries; a member that restarted after an outage hears
// the leader's heartbeats (which carry no commit index) well before its
// log is replicated, and would otherwise call itself caught up with a
// state as old as its last snapshot. So until the member has been ready
// once since it last was not, it asks the leader for its commit index and
// waits until it has applied that far. Only the monitor goroutine uses it.
type catchUp struct {
	confirmed bool   // ready since the last time it was not
	goal      uint64 // leader's commit index when asked; 0: not asked yet
	leader    string // whom goal came from
}

// reset forgets the proof: the member is not ready for another reason.
func (c *catchUp) reset() { *c = catchUp{} }

// check reports why the follower is not caught up with the leader, or ""
// once it is; it asks the leader (at leaderAddr) at most once per leader
// until the answer is reached.
func (n *Node) checkCaughtUp(leaderAddr string) string {
	c := &n.catchUp
	if c.confirmed {
		return ""
	}
	if c.goal == 0 || c.leader != leaderAddr {
		ctx, cancel := context.WithTimeout(n.shutdownContext(), catchUpTimeout)
		st, err := n.memberStatus(ctx, leaderAddr)
		cancel()
		if err != nil || st.CommitIndex == 0 {
			return "asking the leader how far to catch up"
		}
		c.goal, c.leader = st.CommitIndex, leaderAddr
	}
	if last := n.raft.LastIndex(); last < c.goal {
		return fmt.Sprintf("receiving the leader's log (at %d of %d)", last, c.goal)
	}
	if n.fsm.AppliedIndex() < n.lastFSMEntryAtOrBelow(c.goal) {
		return "applying the leader's log"
	}
	return ""
}
