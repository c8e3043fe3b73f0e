package controller

import (
	"context"

	"github.com/raftns/raftns/fsm/state"
)

// NextBrokerID is CONTROLLER_GET_NEXT_BROKER_ID: the id the next broker of a
// group should claim. Its answer is that id.
type NextBrokerID struct {
	ClusterName string
	BrokerName  string
}

// NextBrokerID decides CONTROLLER_GET_NEXT_BROKER_ID.
func (c *Controller) NextBrokerID(ctx context.Context, req NextBrokerID) (int64, error) {
	return nextBrokerIDCall.call(ctx, c, req)
}

var nextBrokerIDCall = onLeader("NextBrokerID", (*Controller).nextBrokerID)

func (c *Controller) nextBrokerID(_ context.Context, req NextBrokerID) (int64, error) {
	if g, found := c.fsm.ReplicaGroup(req.BrokerName); found {
		return g.NextID, nil
	}
	return state.FirstControllerBrokerID, nil
}
