package controller

import (
	"context"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// CleanBrokerData is CLEAN_BROKER_DATA: forget brokers of a group, or the
// whole group without ids; brokers still alive only with CleanLiving.
type CleanBrokerData struct {
	ClusterName string
	BrokerName  string
	BrokerIDs   []int64
	CleanLiving bool
}

// CleanBrokerData decides CLEAN_BROKER_DATA.
func (c *Controller) CleanBrokerData(ctx context.Context, req CleanBrokerData) error {
	_, err := cleanBrokerDataCall.call(ctx, c, req)
	return err
}

var cleanBrokerDataCall = onLeader("CleanBrokerData", (*Controller).cleanBrokerData)

func (c *Controller) cleanBrokerData(ctx context.Context, req CleanBrokerData) (struct{}, error) {
	name := req.BrokerName
	g, found := c.fsm.ReplicaGroup(name)
	if !req.CleanLiving && found {
		if len(req.BrokerIDs) == 0 && g.HasMaster {
			return struct{}{}, state.RefuseCleanLivingGroup(name)
		}
		clusterName := req.ClusterName
		if clusterName == "" {
			clusterName = g.ClusterName
		}
		for _, id := range req.BrokerIDs {
			if c.live.ReplicaAlive(cluster.ReplicaKey{Cluster: clusterName, BrokerName: name, ID: id}) {
				return struct{}{}, state.RefuseCleanLivingBroker(name, id)
			}
		}
	}
	if !found {
		return struct{}{}, state.RefuseCleanUnknownGroup(name)
	}
	_, err := c.propose(ctx, fsm.CleanBrokerDataType, &state.CleanBrokerData{BrokerName: name, BrokerIDs: req.BrokerIDs})
	return struct{}{}, err
}
