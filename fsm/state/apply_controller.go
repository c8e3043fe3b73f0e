package state

import (
	"fmt"
	"slices"
)

func refuse(r ControllerRefusal, format string, args ...any) (ControllerResult, bool) {
	return deny(refusedf(r, format, args...))
}

func deny(e *Refused) (ControllerResult, bool) {
	return ControllerResult{Refusal: e.Reason, Remark: e.Remark}, false
}

// unchanged grants a command that changes nothing.
func unchanged(g *ReplicaGroup) (ControllerResult, bool) {
	return ControllerResult{Group: *g.clone()}, false
}

// change grants a command: edit changes a copy of g, which replaces it.
func (s *State) change(g *ReplicaGroup, edit func(g *ReplicaGroup)) (ControllerResult, bool) {
	g = g.clone()
	edit(g)
	return s.store(g)
}

// store replaces the group with g, which is never changed afterwards.
func (s *State) store(g *ReplicaGroup) (ControllerResult, bool) {
	s.ctrl()[g.BrokerName] = g
	return ControllerResult{Group: *g.clone()}, true
}

func (s *State) ApplyApplyBrokerID(c *ApplyBrokerID) (ControllerResult, bool) {
	g, ok := s.ctrl()[c.BrokerName]
	if !ok {
		if c.BrokerID != FirstControllerBrokerID {
			return refuse(RefusalBrokerIDInvalid, "Broker-set: %s hasn't been registered in controller, but broker try to apply brokerId: %d", c.BrokerName, c.BrokerID)
		}
		g = &ReplicaGroup{ClusterName: c.ClusterName, BrokerName: c.BrokerName, NextID: FirstControllerBrokerID}
	} else if b, taken := g.Broker(c.BrokerID); taken {
		if b.CheckCode != c.CheckCode {
			return refuse(RefusalBrokerIDInvalid, "Fail to apply brokerId: %d in broker-set: %s", c.BrokerID, c.BrokerName)
		}
		// The same broker applying again: granted, nothing changes.
		return unchanged(g)
	}
	return s.change(g, func(g *ReplicaGroup) {
		g.putBroker(ReplicaBroker{ID: c.BrokerID, Addr: c.Addr, CheckCode: c.CheckCode})
		g.NextID++
	})
}

func (s *State) ApplyUpdateBrokerAddress(c *UpdateBrokerAddress) (ControllerResult, bool) {
	g, ok := s.ctrl()[c.BrokerName]
	if !ok {
		return deny(RefuseUnknownGroup(c.BrokerName))
	}
	b, ok := g.Broker(c.BrokerID)
	if !ok {
		return deny(RefuseUnknownBroker(c.BrokerName, c.BrokerID))
	}
	if b.Addr == c.Addr {
		return unchanged(g)
	}
	return s.change(g, func(g *ReplicaGroup) {
		b.Addr = c.Addr
		g.putBroker(b)
	})
}

func (s *State) ApplyElectMaster(c *ElectMaster) (ControllerResult, bool) {
	g, ok := s.ctrl()[c.BrokerName]
	if !ok {
		return deny(RefuseElectUnknownGroup())
	}
	if g.MasterEpoch != c.ExpectMasterEpoch {
		return refuse(RefusalStaleElection, "master epoch of %s is %d, the election was decided under %d", c.BrokerName, g.MasterEpoch, c.ExpectMasterEpoch)
	}
	if c.HasNewMaster {
		if _, ok := g.Broker(c.NewMasterID); !ok {
			return refuse(RefusalInvalidReplicas, "broker %d of %s is not registered", c.NewMasterID, c.BrokerName)
		}
	}
	return s.change(g, func(g *ReplicaGroup) {
		g.MasterEpoch++
		g.HasMaster, g.MasterID = c.HasNewMaster, 0
		if c.HasNewMaster {
			g.MasterID = c.NewMasterID
			g.SyncStateSet = []int64{c.NewMasterID}
			g.SyncStateSetEpoch++
		}
	})
}

func (s *State) ApplyAlterSyncStateSet(c *AlterSyncStateSet) (ControllerResult, bool) {
	g, ok := s.ctrl()[c.BrokerName]
	if !ok {
		return refuse(RefusalAlterFailed, remarkNoMetadata)
	}
	newSet := sortedSet(c.NewSyncStateSet)
	switch {
	case slices.Equal(newSet, g.SyncStateSet):
		return refuse(RefusalAlterFailed, "The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet")
	case !g.HasMaster || g.MasterID != c.MasterID:
		return refuse(RefusalInvalidMaster, "Rejecting alter syncStateSet request because the current leader is:{%s}, not {%d}", masterText(g), c.MasterID)
	case g.MasterEpoch != c.MasterEpoch:
		return refuse(RefusalFencedMasterEpoch, "Rejecting alter syncStateSet request because the current master epoch is:{%d}, not {%d}", g.MasterEpoch, c.MasterEpoch)
	case g.SyncStateSetEpoch != c.SyncStateSetEpoch:
		return refuse(RefusalFencedSyncStateSetEpoch, "Rejecting alter syncStateSet request because the current syncStateSet epoch is:{%d}, not {%d}", g.SyncStateSetEpoch, c.SyncStateSetEpoch)
	}
	for _, id := range newSet {
		if _, ok := g.Broker(id); !ok {
			return refuse(RefusalInvalidReplicas, "Rejecting alter syncStateSet request because the replicas {%d} don't exist", id)
		}
	}
	if _, ok := slices.BinarySearch(newSet, g.MasterID); !ok {
		return refuse(RefusalAlterFailed, "Rejecting alter syncStateSet request because the newSyncStateSet don't contains origin leader {%d}", g.MasterID)
	}
	return s.change(g, func(g *ReplicaGroup) {
		g.SyncStateSet = newSet
		g.SyncStateSetEpoch++
	})
}

func masterText(g *ReplicaGroup) string {
	if !g.HasMaster {
		return "null"
	}
	return fmt.Sprint(g.MasterID)
}

func (s *State) ApplyCleanBrokerData(c *CleanBrokerData) (ControllerResult, bool) {
	g, ok := s.ctrl()[c.BrokerName]
	if !ok {
		return refuse(RefusalNotRegistered, remarkCleanUnknownGroup, c.BrokerName)
	}
	if len(c.BrokerIDs) == 0 {
		delete(s.ctrl(), c.BrokerName)
		return ControllerResult{}, true
	}
	g = g.clone()
	for _, id := range c.BrokerIDs {
		g.Brokers = slices.DeleteFunc(g.Brokers, func(b ReplicaBroker) bool { return b.ID == id })
		g.SyncStateSet = slices.DeleteFunc(g.SyncStateSet, func(x int64) bool { return x == id })
	}
	// The reference drops the group when either table empties.
	if len(g.Brokers) == 0 || len(g.SyncStateSet) == 0 {
		delete(s.ctrl(), c.BrokerName)
		return ControllerResult{}, true
	}
	return s.store(g)
}

// ReplicaGroup returns a copy of the controller's record of a broker group.
func (s *State) ReplicaGroup(brokerName string) (ReplicaGroup, bool) {
	g, ok := s.ctrl()[brokerName]
	if !ok {
		return ReplicaGroup{}, false
	}
	return *g.clone(), true
}

// ReplicaGroups returns a copy of every broker group the controller knows,
// by broker name.
func (s *State) ReplicaGroups() []ReplicaGroup {
	out := make([]ReplicaGroup, 0, len(s.ctrl()))
	for _, name := range sortedKeys(s.ctrl()) {
		out = append(out, *s.ctrl()[name].clone())
	}
	return out
}
