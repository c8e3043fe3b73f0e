package controller

import (
	"context"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// ApplyBrokerID is CONTROLLER_APPLY_BROKER_ID: a broker claims an id in its
// group. Its answer is empty.
type ApplyBrokerID = state.ApplyBrokerID

// ApplyBrokerID decides CONTROLLER_APPLY_BROKER_ID.
func (c *Controller) ApplyBrokerID(ctx context.Context, req ApplyBrokerID) error {
	_, err := applyBrokerIDCall.call(ctx, c, req)
	return err
}

var applyBrokerIDCall = onLeader("ApplyBrokerID", (*Controller).applyBrokerID)

func (c *Controller) applyBrokerID(ctx context.Context, req ApplyBrokerID) (struct{}, error) {
	_, err := c.propose(ctx, fsm.ApplyBrokerIDType, &req)
	return struct{}{}, err
}
