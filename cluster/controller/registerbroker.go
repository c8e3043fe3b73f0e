package controller

import (
	"context"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// RegisterBroker is CONTROLLER_REGISTER_BROKER: a broker with an id tells
// the controller its address.
type RegisterBroker struct {
	ClusterName string
	BrokerName  string
	BrokerID    int64
	Addr        string
}

// Registered answers RegisterBroker: the group as it was when the broker
// registered, and whether the leader counts its master as alive (the
// answer names the master only then).
type Registered struct {
	Group       state.ReplicaGroup
	MasterAlive bool
}

// RegisterBroker decides CONTROLLER_REGISTER_BROKER.
func (c *Controller) RegisterBroker(ctx context.Context, req RegisterBroker) (Registered, error) {
	return registerBrokerCall.call(ctx, c, req)
}

var registerBrokerCall = onLeader("RegisterBroker", (*Controller).registerBroker)

func (c *Controller) registerBroker(ctx context.Context, req RegisterBroker) (Registered, error) {
	g, found := c.fsm.ReplicaGroup(req.BrokerName)
	if !found {
		return Registered{}, state.RefuseUnknownGroup(req.BrokerName)
	}
	b, found := g.Broker(req.BrokerID)
	if !found {
		return Registered{}, state.RefuseUnknownBroker(req.BrokerName, req.BrokerID)
	}
	reg := Registered{Group: g, MasterAlive: g.HasMaster && c.alive(&g, g.MasterID)}
	if b.Addr != req.Addr {
		if _, err := c.propose(ctx, fsm.UpdateBrokerAddressType,
			&state.UpdateBrokerAddress{BrokerName: req.BrokerName, BrokerID: req.BrokerID, Addr: req.Addr}); err != nil {
			return Registered{}, err
		}
	}
	return reg, nil
}
