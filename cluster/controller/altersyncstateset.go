package controller

import (
	"context"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// AlterSyncStateSet is CONTROLLER_ALTER_SYNC_STATE_SET from a master. Its
// answer is the group afterwards.
type AlterSyncStateSet = state.AlterSyncStateSet

// AlterSyncStateSet decides CONTROLLER_ALTER_SYNC_STATE_SET.
func (c *Controller) AlterSyncStateSet(ctx context.Context, req AlterSyncStateSet) (state.ReplicaGroup, error) {
	return alterSyncStateSetCall.call(ctx, c, req)
}

var alterSyncStateSetCall = onLeader("AlterSyncStateSet", (*Controller).alterSyncStateSet)

func (c *Controller) alterSyncStateSet(ctx context.Context, req AlterSyncStateSet) (state.ReplicaGroup, error) {
	if g, found := c.fsm.ReplicaGroup(req.BrokerName); found {
		for _, id := range req.NewSyncStateSet {
			if _, registered := g.Broker(id); registered && !c.alive(&g, id) {
				return state.ReplicaGroup{}, state.RefuseReplicaNotAlive(id)
			}
		}
	}
	return c.propose(ctx, fsm.AlterSyncStateSetType, &req)
}
