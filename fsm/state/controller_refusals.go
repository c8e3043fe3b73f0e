package state

import "fmt"

// Refused is a controller request or command refused, as an error: the
// reason, which the transport maps to the reference controller's response
// code, and the remark the reference words it with. Every remark is
// written in this file, whether Apply refuses a command or the leader
// refuses a request before proposing one.
type Refused struct {
	Reason ControllerRefusal
	Remark string
}

func (e *Refused) Error() string { return e.Remark }

func refusedf(r ControllerRefusal, format string, args ...any) *Refused {
	return &Refused{Reason: r, Remark: fmt.Sprintf(format, args...)}
}

// Err returns the result's refusal as a *Refused, nil when it was granted.
func (r ControllerResult) Err() error {
	if r.Refusal == RefusalNone {
		return nil
	}
	return &Refused{Reason: r.Refusal, Remark: r.Remark}
}

// Remarks that go with more than one reason.
const (
	remarkNoMetadata        = "Broker metadata is not existed"
	remarkCleanUnknownGroup = "Broker %s is not existed,clean broker data failure."
)

// RefuseUnknownGroup: the broker group was never registered.
func RefuseUnknownGroup(brokerName string) *Refused {
	return refusedf(RefusalNotRegistered, "Broker-set: %s hasn't been registered in controller", brokerName)
}

// RefuseUnknownBroker: the group has no broker with the id.
func RefuseUnknownBroker(brokerName string, id int64) *Refused {
	return refusedf(RefusalNotRegistered, "BrokerId: %d hasn't been registered in broker-set: %s", id, brokerName)
}

// RefuseElectUnknownGroup: an election in a group never registered.
func RefuseElectUnknownGroup() *Refused {
	return refusedf(RefusalNotRegistered, "Broker hasn't been registered")
}

// RefuseNoMetadata: CONTROLLER_GET_REPLICA_INFO of an unknown group.
func RefuseNoMetadata() *Refused { return refusedf(RefusalNoMetadata, remarkNoMetadata) }

// RefuseReplicaNotAlive: a new SyncStateSet names a replica the leader
// counts as inactive.
func RefuseReplicaNotAlive(id int64) *Refused {
	return refusedf(RefusalBrokerNotAlive, "Rejecting alter syncStateSet request because the replicas {%d} don't alive", id)
}

// RefuseMasterNotAvailable: the master is gone and no replica could
// replace it (an election the leader started).
func RefuseMasterNotAvailable() *Refused {
	return refusedf(RefusalMasterNotAvailable, "Old master has down and failed to elect a new broker master")
}

// RefuseElectFailed: an election a broker asked for found no candidate or
// lost a race with another.
func RefuseElectFailed() *Refused {
	return refusedf(RefusalElectFailed, "Failed to elect a new master")
}

// RefuseCleanUnknownGroup: CLEAN_BROKER_DATA of an unknown group.
func RefuseCleanUnknownGroup(brokerName string) *Refused {
	return refusedf(RefusalCleanInvalid, remarkCleanUnknownGroup, brokerName)
}

// RefuseCleanIDs: CLEAN_BROKER_DATA with ids that do not parse.
func RefuseCleanIDs(err error) *Refused {
	return refusedf(RefusalCleanInvalid, "Please set the option <brokerControllerIdsToClean> according to the format, exception: %v", err)
}

// RefuseCleanLivingGroup: CLEAN_BROKER_DATA of a whole group that still
// has a master.
func RefuseCleanLivingGroup(brokerName string) *Refused {
	return refusedf(RefusalCleanInvalid, "Broker %s is still alive, clean up failure", brokerName)
}

// RefuseCleanLivingBroker: CLEAN_BROKER_DATA of a broker still alive.
func RefuseCleanLivingBroker(brokerName string, id int64) *Refused {
	return refusedf(RefusalCleanInvalid, "Broker [%s,  %d] is still alive, clean up failure", brokerName, id)
}

// MasterStillAliveRemark is the remark of CONTROLLER_MASTER_STILL_EXIST,
// the answer to an election that keeps the current master.
func MasterStillAliveRemark(g *ReplicaGroup) string {
	return fmt.Sprintf("The old master %d is still alive, not need to elect new master for broker %s", g.MasterID, g.BrokerName)
}
