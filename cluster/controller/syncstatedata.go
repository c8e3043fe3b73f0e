package controller

import (
	"context"

	"github.com/raftns/raftns/fsm/state"
)

// GetSyncStateData is CONTROLLER_GET_SYNC_STATE_DATA: the groups of the
// named brokers, in order, each once.
type GetSyncStateData struct{ BrokerNames []string }

// GroupState is one group of a GetSyncStateData answer with the ids of
// the brokers the leader counts as alive.
type GroupState struct {
	Group state.ReplicaGroup
	Alive []int64
}

// SyncStateData answers CONTROLLER_GET_SYNC_STATE_DATA.
func (c *Controller) SyncStateData(ctx context.Context, req GetSyncStateData) ([]GroupState, error) {
	return syncStateDataCall.call(ctx, c, req)
}

var syncStateDataCall = onLeader("GetSyncStateData", (*Controller).syncStateData)

func (c *Controller) syncStateData(_ context.Context, req GetSyncStateData) ([]GroupState, error) {
	var out []GroupState
	listed := map[string]bool{}
	for _, name := range req.BrokerNames {
		g, found := c.fsm.ReplicaGroup(name)
		if !found || listed[name] {
			continue
		}
		listed[name] = true
		out = append(out, GroupState{Group: g, Alive: c.aliveIDs(&g)})
	}
	return out, nil
}
