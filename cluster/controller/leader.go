package controller

import (
	"context"
	"fmt"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// The leader's side of the controller's requests: it decides them on the
// leader in office, where the brokers' liveness is known. Semantics follow
// the reference controller's ReplicasInfoManager; the checks that need
// liveness run here, the ones on replicated state run again in the FSM.

// propose proposes a controller command and returns the group afterwards,
// or the command's refusal.
func (c *Controller) propose(ctx context.Context, t fsm.CommandType, cmd any) (state.ReplicaGroup, error) {
	res, err := c.proposeCommand(ctx, t, cmd)
	if err != nil {
		return state.ReplicaGroup{}, err
	}
	return res.Group, res.Err()
}

// proposeCommand proposes a controller command as the leader in office (a
// follower never proposes one) and returns the FSM's answer.
func (c *Controller) proposeCommand(ctx context.Context, t fsm.CommandType, cmd any) (state.ControllerResult, error) {
	res, err := c.node.ApplyLeaderOnly(ctx, t, cmd)
	if err != nil {
		return state.ControllerResult{}, err
	}
	r, ok := res.(state.ControllerResult)
	if !ok {
		return state.ControllerResult{}, fmt.Errorf("%s answered %T", t, res)
	}
	return r, nil
}
