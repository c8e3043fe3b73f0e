package state

import (
	"cmp"
	"slices"
)

// FirstControllerBrokerID is the id the controller assigns to the first
// broker of a group (ids start at 1; 0 is the route table's master id).
const FirstControllerBrokerID int64 = 1

// ReplicaBroker is one broker the controller assigned an id in its group.
type ReplicaBroker struct {
	ID   int64
	Addr string
	// CheckCode is the broker's registerCheckCode ("addr;timestamp"): the
	// same broker may apply for its id again, another may not.
	CheckCode string
}

// ReplicaGroup is the controller's record of one broker group (a broker
// name): its brokers, its master and SyncStateSet with their epochs. Values
// stored in the state are never changed in place; a write stores a copy.
type ReplicaGroup struct {
	ClusterName string
	BrokerName  string
	// Brokers sorted by ID.
	Brokers []ReplicaBroker
	// NextID is the id CONTROLLER_GET_NEXT_BROKER_ID proposes.
	NextID int64
	// HasMaster is false before the first election and after an election
	// that found no candidate.
	HasMaster   bool
	MasterID    int64
	MasterEpoch int32
	// SyncStateSet sorted ascending.
	SyncStateSet      []int64
	SyncStateSetEpoch int32
}

// Broker returns the broker with id.
func (g *ReplicaGroup) Broker(id int64) (ReplicaBroker, bool) {
	i, ok := slices.BinarySearchFunc(g.Brokers, id, func(b ReplicaBroker, id int64) int { return cmp.Compare(b.ID, id) })
	if !ok {
		return ReplicaBroker{}, false
	}
	return g.Brokers[i], true
}

// Addr returns the address of broker id, "" if unknown.
func (g *ReplicaGroup) Addr(id int64) string {
	b, _ := g.Broker(id)
	return b.Addr
}

// MasterAddr returns the master's address, "" without a master.
func (g *ReplicaGroup) MasterAddr() string {
	if !g.HasMaster {
		return ""
	}
	return g.Addr(g.MasterID)
}

// IDs returns every broker id in ascending order.
func (g *ReplicaGroup) IDs() []int64 {
	out := make([]int64, len(g.Brokers))
	for i, b := range g.Brokers {
		out[i] = b.ID
	}
	return out
}

// InSyncStateSet reports whether id is in the SyncStateSet.
func (g *ReplicaGroup) InSyncStateSet(id int64) bool {
	_, ok := slices.BinarySearch(g.SyncStateSet, id)
	return ok
}

func (g *ReplicaGroup) clone() *ReplicaGroup {
	c := *g
	c.Brokers = slices.Clone(g.Brokers)
	c.SyncStateSet = slices.Clone(g.SyncStateSet)
	return &c
}

// putBroker adds or replaces a broker, keeping Brokers sorted.
func (g *ReplicaGroup) putBroker(b ReplicaBroker) {
	i, ok := slices.BinarySearchFunc(g.Brokers, b.ID, func(x ReplicaBroker, id int64) int { return cmp.Compare(x.ID, id) })
	if ok {
		g.Brokers[i] = b
		return
	}
	g.Brokers = slices.Insert(g.Brokers, i, b)
}

// sortedSet returns ids sorted and without duplicates.
func sortedSet(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// ControllerRefusal says why the FSM refused a controller command, or the
// leader a controller request (Refused); the transport maps each to the
// reference controller's response code.
type ControllerRefusal uint8

// Refusals of controller commands.
const (
	RefusalNone ControllerRefusal = iota
	// RefusalNotRegistered: the group or the broker id is unknown.
	RefusalNotRegistered
	// RefusalBrokerIDInvalid: the id is taken by another broker, or the
	// first id of a new group is not FirstControllerBrokerID.
	RefusalBrokerIDInvalid
	// RefusalInvalidMaster: the request names a broker that is not master.
	RefusalInvalidMaster
	// RefusalFencedMasterEpoch: the request carries an old master epoch.
	RefusalFencedMasterEpoch
	// RefusalFencedSyncStateSetEpoch: an old SyncStateSet epoch.
	RefusalFencedSyncStateSetEpoch
	// RefusalInvalidReplicas: the new SyncStateSet names unknown brokers.
	RefusalInvalidReplicas
	// RefusalAlterFailed: the new SyncStateSet equals the old one or lacks
	// the master.
	RefusalAlterFailed
	// RefusalStaleElection: the election was decided under a master epoch
	// that has moved on (another election won the race).
	RefusalStaleElection
	// RefusalBrokerNotAlive: the new SyncStateSet names a replica the
	// leader counts as inactive.
	RefusalBrokerNotAlive
	// RefusalNoMetadata: the group asked about is unknown.
	RefusalNoMetadata
	// RefusalCleanInvalid: CLEAN_BROKER_DATA names an unknown group, a
	// living broker or ids that do not parse.
	RefusalCleanInvalid
	// RefusalMasterNotAvailable: the master is gone and nobody could be
	// elected.
	RefusalMasterNotAvailable
	// RefusalElectFailed: an election a broker asked for elected nobody.
	RefusalElectFailed
)

// ControllerResult is what a controller command answers: a refusal (with a
// remark) or the group as it is after applying.
type ControllerResult struct {
	Refusal ControllerRefusal
	Remark  string
	Group   ReplicaGroup
}
