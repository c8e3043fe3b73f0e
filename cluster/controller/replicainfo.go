package controller

import (
	"context"

	"github.com/raftns/raftns/fsm/state"
)

// GetReplicaInfo is CONTROLLER_GET_REPLICA_INFO. Its answer is the group.
type GetReplicaInfo struct{ BrokerName string }

// ReplicaInfo answers CONTROLLER_GET_REPLICA_INFO.
func (c *Controller) ReplicaInfo(ctx context.Context, req GetReplicaInfo) (state.ReplicaGroup, error) {
	return replicaInfoCall.call(ctx, c, req)
}

var replicaInfoCall = onLeader("GetReplicaInfo", (*Controller).replicaInfo)

func (c *Controller) replicaInfo(_ context.Context, req GetReplicaInfo) (state.ReplicaGroup, error) {
	g, found := c.fsm.ReplicaGroup(req.BrokerName)
	if !found {
		return state.ReplicaGroup{}, state.RefuseNoMetadata()
	}
	return g, nil
}
