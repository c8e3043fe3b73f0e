package state

// Controller commands (RocketMQ 5 controller mode, docs/operators/controller.md).
// Every one is decided by the leader, which checks broker liveness first,
// and proposed by it (LeaderOnly): a follower forwards the broker's request,
// not a command. Apply re-checks everything that depends on the replicated
// state, so a decision that raced another is refused, never half-applied.

// ApplyBrokerID is CONTROLLER_APPLY_BROKER_ID: a broker claims an id in
// its group. The first broker of a new group must claim
// FirstControllerBrokerID; an id already taken is granted again only to the
// broker with the same check code.
type ApplyBrokerID struct {
	ClusterName string
	BrokerName  string
	BrokerID    int64
	Addr        string
	CheckCode   string
}

// UpdateBrokerAddress records a registered broker's new address
// (CONTROLLER_REGISTER_BROKER from a broker that moved).
type UpdateBrokerAddress struct {
	BrokerName string
	BrokerID   int64
	Addr       string
}

// ElectMaster records an election the leader decided. It applies only while
// the group's master epoch is still ExpectMasterEpoch. HasNewMaster false
// records that the master is gone and no candidate was found: the master is
// cleared and the SyncStateSet kept.
type ElectMaster struct {
	BrokerName        string
	ExpectMasterEpoch int32
	HasNewMaster      bool
	NewMasterID       int64
}

// AlterSyncStateSet is CONTROLLER_ALTER_SYNC_STATE_SET from the master.
type AlterSyncStateSet struct {
	BrokerName        string
	MasterID          int64
	MasterEpoch       int32
	SyncStateSetEpoch int32
	NewSyncStateSet   []int64
}

// CleanBrokerData is CLEAN_BROKER_DATA: remove the listed ids from the
// group, or the whole group when BrokerIDs is empty.
type CleanBrokerData struct {
	BrokerName string
	BrokerIDs  []int64
}
