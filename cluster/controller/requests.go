package controller

import "github.com/raftns/raftns/fsm"

// The controller's requests and answers, one pair per request kind
// (docs/operators/controller.md, "Protocol coverage"). The transport decodes a
// request's header and body into them and encodes the answers; the leader
// decides on them. A refusal is an *fsm.Refused error.

// ApplyBrokerID is CONTROLLER_APPLY_BROKER_ID: a broker claims an id in its
// group. Its answer is empty.
type ApplyBrokerID = fsm.ApplyBrokerID

// NextBrokerID is CONTROLLER_GET_NEXT_BROKER_ID: the id the next broker of a
// group should claim. Its answer is that id.
type NextBrokerID struct {
	ClusterName string
	BrokerName  string
}

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
	Group       fsm.ReplicaGroup
	MasterAlive bool
}

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
	Group            fsm.ReplicaGroup
	MasterStillAlive bool
}

// AlterSyncStateSet is CONTROLLER_ALTER_SYNC_STATE_SET from a master. Its
// answer is the group afterwards.
type AlterSyncStateSet = fsm.AlterSyncStateSet

// GetReplicaInfo is CONTROLLER_GET_REPLICA_INFO. Its answer is the group.
type GetReplicaInfo struct{ BrokerName string }

// GetSyncStateData is CONTROLLER_GET_SYNC_STATE_DATA: the groups of the
// named brokers, in order, each once.
type GetSyncStateData struct{ BrokerNames []string }

// GroupState is one group of a GetSyncStateData answer with the ids of
// the brokers the leader counts as alive.
type GroupState struct {
	Group fsm.ReplicaGroup
	Alive []int64
}

// CleanBrokerData is CLEAN_BROKER_DATA: forget brokers of a group, or the
// whole group without ids; brokers still alive only with CleanLiving.
type CleanBrokerData struct {
	ClusterName string
	BrokerName  string
	BrokerIDs   []int64
	CleanLiving bool
}
