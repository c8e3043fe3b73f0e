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

// deliverBatch sends a member's batch to the leader with the Heartbeats
// RPC and hands delivered the leader's answer, its commit index.
func deliverBatch(pool *rpcPool, delivered func(answer []byte)) func(context.Context, string, *liveness.Batch) error {
	return func(ctx context.Context, addr string, b *liveness.Batch) error {
		var reply LeaderReply
		err := pool.call(ctx, addr, "Heartbeats", b, &reply, false)
		if err == nil {
			err = replyErr(&reply)
		}
		if err == nil {
			delivered(reply.Result)
		}
		return err
	}
}
