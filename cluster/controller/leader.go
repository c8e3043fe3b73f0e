package controller

import (
	"context"
	"fmt"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
)

// The leader's side of the controller's requests: it decides them on the
// leader in office, where the brokers' liveness is known. Semantics follow
// the reference controller's ReplicasInfoManager; the checks that need
// liveness run here, the ones on replicated state run again in the FSM.

// propose proposes a controller command and returns the group afterwards,
// or the command's refusal.
func (c *Controller) propose(ctx context.Context, t fsm.CommandType, cmd any) (fsm.ReplicaGroup, error) {
	res, err := c.proposeCommand(ctx, t, cmd)
	if err != nil {
		return fsm.ReplicaGroup{}, err
	}
	return res.Group, res.Err()
}

// proposeCommand proposes a controller command as the leader in office (a
// follower never proposes one) and returns the FSM's answer.
func (c *Controller) proposeCommand(ctx context.Context, t fsm.CommandType, cmd any) (fsm.ControllerResult, error) {
	res, err := c.node.ApplyLeaderOnly(ctx, t, cmd)
	if err != nil {
		return fsm.ControllerResult{}, err
	}
	r, ok := res.(fsm.ControllerResult)
	if !ok {
		return fsm.ControllerResult{}, fmt.Errorf("%s answered %T", t, res)
	}
	return r, nil
}

func (c *Controller) applyBrokerID(ctx context.Context, req ApplyBrokerID) (struct{}, error) {
	_, err := c.propose(ctx, fsm.ApplyBrokerIDType, &req)
	return struct{}{}, err
}

func (c *Controller) nextBrokerID(_ context.Context, req NextBrokerID) (int64, error) {
	if g, found := c.fsm.ReplicaGroup(req.BrokerName); found {
		return g.NextID, nil
	}
	return fsm.FirstControllerBrokerID, nil
}

func (c *Controller) registerBroker(ctx context.Context, req RegisterBroker) (Registered, error) {
	g, found := c.fsm.ReplicaGroup(req.BrokerName)
	if !found {
		return Registered{}, fsm.RefuseUnknownGroup(req.BrokerName)
	}
	b, found := g.Broker(req.BrokerID)
	if !found {
		return Registered{}, fsm.RefuseUnknownBroker(req.BrokerName, req.BrokerID)
	}
	reg := Registered{Group: g, MasterAlive: g.HasMaster && c.alive(&g, g.MasterID)}
	if b.Addr != req.Addr {
		if _, err := c.propose(ctx, fsm.UpdateBrokerAddressType,
			&fsm.UpdateBrokerAddress{BrokerName: req.BrokerName, BrokerID: req.BrokerID, Addr: req.Addr}); err != nil {
			return Registered{}, err
		}
	}
	return reg, nil
}

func (c *Controller) electMaster(ctx context.Context, req ElectRequest) (Elected, error) {
	outcome, g, err := c.elect(ctx, req)
	if err != nil {
		return Elected{}, err
	}
	switch outcome {
	case electedNew:
		return Elected{Group: g}, nil
	case masterStillAlive:
		return Elected{Group: g, MasterStillAlive: true}, nil
	case groupUnknown:
		return Elected{}, fsm.RefuseElectUnknownGroup()
	case noCandidate:
		if !req.HasBrokerID {
			return Elected{}, fsm.RefuseMasterNotAvailable()
		}
	}
	return Elected{}, fsm.RefuseElectFailed()
}

func (c *Controller) alterSyncStateSet(ctx context.Context, req AlterSyncStateSet) (fsm.ReplicaGroup, error) {
	if g, found := c.fsm.ReplicaGroup(req.BrokerName); found {
		for _, id := range req.NewSyncStateSet {
			if _, registered := g.Broker(id); registered && !c.alive(&g, id) {
				return fsm.ReplicaGroup{}, fsm.RefuseReplicaNotAlive(id)
			}
		}
	}
	return c.propose(ctx, fsm.AlterSyncStateSetType, &req)
}

func (c *Controller) replicaInfo(_ context.Context, req GetReplicaInfo) (fsm.ReplicaGroup, error) {
	g, found := c.fsm.ReplicaGroup(req.BrokerName)
	if !found {
		return fsm.ReplicaGroup{}, fsm.RefuseNoMetadata()
	}
	return g, nil
}

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

func (c *Controller) cleanBrokerData(ctx context.Context, req CleanBrokerData) (struct{}, error) {
	name := req.BrokerName
	g, found := c.fsm.ReplicaGroup(name)
	if !req.CleanLiving && found {
		if len(req.BrokerIDs) == 0 && g.HasMaster {
			return struct{}{}, fsm.RefuseCleanLivingGroup(name)
		}
		clusterName := req.ClusterName
		if clusterName == "" {
			clusterName = g.ClusterName
		}
		for _, id := range req.BrokerIDs {
			if c.live.ReplicaAlive(cluster.ReplicaKey{Cluster: clusterName, BrokerName: name, ID: id}) {
				return struct{}{}, fsm.RefuseCleanLivingBroker(name, id)
			}
		}
	}
	if !found {
		return struct{}{}, fsm.RefuseCleanUnknownGroup(name)
	}
	_, err := c.propose(ctx, fsm.CleanBrokerDataType, &fsm.CleanBrokerData{BrokerName: name, BrokerIDs: req.BrokerIDs})
	return struct{}{}, err
}
