package controller

import (
	"context"
	"errors"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
)

// controllerCalls are the controller's calls on the leader, one per
// request kind.
type controllerCalls struct {
	applyID   leaderCall[ApplyBrokerID, struct{}]
	nextID    leaderCall[NextBrokerID, int64]
	register  leaderCall[RegisterBroker, Registered]
	elect     leaderCall[ElectRequest, Elected]
	alter     leaderCall[AlterSyncStateSet, fsm.ReplicaGroup]
	info      leaderCall[GetReplicaInfo, fsm.ReplicaGroup]
	syncState leaderCall[GetSyncStateData, []GroupState]
	clean     leaderCall[CleanBrokerData, struct{}]
}

type leaderCall[Req, A any] func(context.Context, Req) (A, error)

// registerCalls registers the controller's calls on the leader.
func (c *Controller) registerCalls() controllerCalls {
	return controllerCalls{
		applyID:   onLeader(c, "ApplyBrokerID", c.applyBrokerID),
		nextID:    onLeader(c, "NextBrokerID", c.nextBrokerID),
		register:  onLeader(c, "RegisterBroker", c.registerBroker),
		elect:     onLeader(c, "ElectMaster", c.electMaster),
		alter:     onLeader(c, "AlterSyncStateSet", c.alterSyncStateSet),
		info:      onLeader(c, "GetReplicaInfo", c.replicaInfo),
		syncState: onLeader(c, "GetSyncStateData", c.syncStateData),
		clean:     onLeader(c, "CleanBrokerData", c.cleanBrokerData),
	}
}

// errNotServing: the leader has the controller switched off.
var errNotServing = errors.New("raftns: the controller is not enabled on the leader")

// outcome is a call's answer on its way from the leader: the answer, or
// the refusal, which travels as a value so that the caller gets the
// *fsm.Refused back.
type outcome[A any] struct {
	Answer  A
	Refused *fsm.Refused
}

// onLeader registers decide as the call name on the leader.
func onLeader[Req, A any](c *Controller, name string, decide func(context.Context, Req) (A, error)) leaderCall[Req, A] {
	call := cluster.NewLeaderCall(c.node, "controller."+name, func(ctx context.Context, req Req) (outcome[A], error) {
		if !c.serving {
			return outcome[A]{}, errNotServing
		}
		a, err := decide(ctx, req)
		var refused *fsm.Refused
		if errors.As(err, &refused) {
			return outcome[A]{Refused: refused}, nil
		}
		return outcome[A]{Answer: a}, err
	})
	return func(ctx context.Context, req Req) (A, error) {
		out, err := call.Call(ctx, req)
		if err == nil && out.Refused != nil {
			err = out.Refused
		}
		return out.Answer, err
	}
}
