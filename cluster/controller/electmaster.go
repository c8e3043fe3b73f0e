package controller

import (
	"context"

	"github.com/raftns/raftns/fsm/state"
)

// ElectRequest asks for an election in a broker group: from a broker
// (CONTROLLER_ELECT_MASTER, HasBrokerID) or from the leader itself when the
// master stopped.
type ElectRequest struct {
	BrokerName  string
	HasBrokerID bool
	BrokerID    int64
	// Designate elects BrokerID if it is alive (mqadmin electMaster).
	Designate bool
}

// Elected answers an election: the group afterwards, and whether the master
// stayed because it is alive (CONTROLLER_MASTER_STILL_EXIST).
type Elected struct {
	Group            state.ReplicaGroup
	MasterStillAlive bool
}

// ElectMaster decides CONTROLLER_ELECT_MASTER.
func (c *Controller) ElectMaster(ctx context.Context, req ElectRequest) (Elected, error) {
	return electMasterCall.call(ctx, c, req)
}

var electMasterCall = onLeader("ElectMaster", (*Controller).electMaster)

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
		return Elected{}, state.RefuseElectUnknownGroup()
	case noCandidate:
		if !req.HasBrokerID {
			return Elected{}, state.RefuseMasterNotAvailable()
		}
	}
	return Elected{}, state.RefuseElectFailed()
}
