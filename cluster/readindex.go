package cluster

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// readIndexMethod is the RPC by which a follower asks the leader for a read
// index.
const readIndexMethod = "ReadIndex"

// ReadIndexArgs asks the leader for its read index.
type ReadIndexArgs struct{}

// readApplyPoll is how often a leader-checked read looks at the applied
// index while it waits for this member to catch up.
const readApplyPoll = 2 * time.Millisecond

// LinearizableRead returns once this member's FSM reflects every write
// acknowledged before the call, so that a read of it that follows is
// linearizable (docs/contributors/design.md, "Leader-checked reads"). It is the read
// index of etcd and Consul's consistent mode: the leader records its commit
// index, confirms with a quorum that it is still the leader
// (VerifyLeader), and this member waits until it has applied that index.
// It fails like a write when no leader can be reached (ErrNoLeader).
func (n *Node) LinearizableRead(ctx context.Context) error {
	res, err := n.onLeader(ctx, leaderOp{
		method: readIndexMethod,
		args:   func() (any, error) { return &ReadIndexArgs{}, nil },
		local:  func(ctx context.Context) (any, error) { return n.readIndexAsLeader(ctx) },
		decode: func(b []byte) (any, error) { return strconv.ParseUint(string(b), 10, 64) },
	})
	if err != nil {
		return err
	}
	n.stats.LinearizableReads.Add(1)
	return n.waitApplied(ctx, res.(uint64))
}

// readIndexAsLeader returns the commit index once a quorum confirmed that
// this member still leads. A leader in office has committed an entry of its
// own term (the Barrier of taking office), so its commit index covers every
// write acknowledged by any earlier leader.
func (n *Node) readIndexAsLeader(ctx context.Context) (uint64, error) {
	if err := n.tenure.readyFor(ctx); err != nil {
		return 0, err
	}
	idx := n.raft.CommitIndex()
	if err := n.raft.VerifyLeader().Error(); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNotLeader, err)
	}
	return idx, nil
}

// waitApplied waits until this member's FSM has applied every entry up to
// idx that reaches it. Raft's own applied index comes first: once it has
// passed idx, the entries up to idx are in the local log (or a restored
// snapshot), so the last one the FSM sees can be looked up.
func (n *Node) waitApplied(ctx context.Context, idx uint64) error {
	return poll.Until(ctx, n.cfg.ApplyTimeout, readApplyPoll, fmt.Sprintf("index %d to be applied", idx), func() (bool, error) {
		if n.raft.AppliedIndex() < idx {
			return false, nil
		}
		return n.fsm.AppliedIndex() >= lastFSMEntryAtOrBelow(n.stores.logs, idx), nil
	})
}

// ReadIndex serves a follower's LinearizableRead on the leader.
func (e *rpcEndpoint) ReadIndex(_ *ReadIndexArgs, reply *LeaderReply) error {
	return e.run(reply, e.n.cfg.ApplyTimeout, func(ctx context.Context) ([]byte, error) {
		idx, err := e.n.readIndexAsLeader(ctx)
		if err != nil {
			return nil, err
		}
		return strconv.AppendUint(nil, idx, 10), nil
	})
}
