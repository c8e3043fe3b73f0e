package cluster

import (
	"context"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster/liveness"
)

// remoteLeader returns the leader's cluster address: "" when this member
// leads or no leader is known.
func remoteLeader(r *raft.Raft) string {
	addr, _ := r.LeaderWithID()
	if r.State() == raft.Leader {
		return ""
	}
	return string(addr)
}

// HeartbeatReply is the leader's answer to a heartbeat batch: a
// LeaderReply whose Result is the leader's commit index, and the members
// the leader counts ready. It decodes as a LeaderReply, field by field, so
// members of a release that expects one read it, and a leader of such a
// release answers with ReadyMembers empty.
type HeartbeatReply struct {
	Result  []byte
	ErrKind string
	Err     string
	// ReadyMembers are the ids of the members the leader counts ready
	// (readyView).
	ReadyMembers []string
}

// deliverBatch sends a member's batch to the leader with the Heartbeats
// RPC, saying whether this member is ready, and hands delivered the
// leader's answer: its commit index and the members it counts ready.
func deliverBatch(pool *rpcPool, ready func() bool, delivered func(commit []byte, readyMembers []string)) func(context.Context, string, *liveness.Batch) error {
	return func(ctx context.Context, addr string, b *liveness.Batch) error {
		b.SenderReadiness = liveness.SenderNotReady
		if ready() {
			b.SenderReadiness = liveness.SenderReady
		}
		var reply HeartbeatReply
		err := pool.call(ctx, addr, "Heartbeats", b, &reply, false)
		if err == nil {
			err = replyErr(&LeaderReply{ErrKind: reply.ErrKind, Err: reply.Err})
		}
		if err == nil {
			delivered(reply.Result, reply.ReadyMembers)
		}
		return err
	}
}
