package controller

import (
	"context"
	"sort"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// electOutcome is what an election found.
type electOutcome int

// Election outcomes, matching the reference controller's answers.
const (
	// electedNew: a new master was elected and committed.
	electedNew electOutcome = iota
	// masterStillAlive: the current master stays (CONTROLLER_MASTER_STILL_EXIST).
	masterStillAlive
	// noCandidate: nobody could be elected (CONTROLLER_ELECT_MASTER_FAILED);
	// a leader-triggered election then clears the master
	// (CONTROLLER_MASTER_NOT_AVAILABLE).
	noCandidate
	// groupUnknown: the group is not registered.
	groupUnknown
	// electionRaced: another election changed the master epoch first.
	electionRaced
)

// elect runs an election on the leader in office: it picks a master with
// the policy of docs/operators/controller.md, commits it fenced by the master epoch
// it read, and has the group's brokers told. It returns the group as it
// is afterwards.
func (c *Controller) elect(ctx context.Context, req ElectRequest) (electOutcome, state.ReplicaGroup, error) {
	c.electMu.Lock()
	defer c.electMu.Unlock()
	g, ok := c.fsm.ReplicaGroup(req.BrokerName)
	if !ok {
		return groupUnknown, g, nil
	}
	newMaster, found := int64(0), false
	if g.MasterEpoch == 0 && req.HasBrokerID && req.BrokerID >= 0 {
		// The group's first election: the broker that asks becomes master.
		newMaster, found = req.BrokerID, true
	} else {
		newMaster, found = c.pickMaster(g, req)
	}
	if found && g.HasMaster && newMaster == g.MasterID {
		return masterStillAlive, g, nil
	}
	if !found && req.HasBrokerID {
		return noCandidate, g, nil
	}
	res, err := c.proposeCommand(ctx, fsm.ElectMasterType, &state.ElectMaster{
		BrokerName: req.BrokerName, ExpectMasterEpoch: g.MasterEpoch, HasNewMaster: found, NewMasterID: newMaster})
	switch {
	case err != nil:
		return noCandidate, g, err
	case res.Refusal == state.RefusalStaleElection:
		return electionRaced, g, nil
	case res.Refusal != state.RefusalNone:
		return groupUnknown, g, nil
	case !found:
		c.logger.Warn("broker group has no master: no alive candidate", "broker", req.BrokerName, "masterEpoch", res.Group.MasterEpoch)
		return noCandidate, res.Group, nil
	}
	c.logger.Info("broker master elected", "broker", req.BrokerName, "master", newMaster,
		"addr", res.Group.MasterAddr(), "masterEpoch", res.Group.MasterEpoch)
	c.notifyRoleChange(res.Group)
	return electedNew, res.Group, nil
}

// pickMaster is the election policy: alive members of the SyncStateSet
// first, then (with ElectUncleanMaster) any alive replica. The current
// master stays if alive and not overridden; a designated broker is taken
// only if alive; otherwise the highest (epoch, offset) wins, then the
// lowest election priority value, then the lowest id.
func (c *Controller) pickMaster(g state.ReplicaGroup, req ElectRequest) (int64, bool) {
	if id, ok := c.tryElect(g, g.SyncStateSet, req); ok {
		return id, true
	}
	if c.Options().ElectUncleanMaster {
		return c.tryElect(g, g.IDs(), req)
	}
	return 0, false
}

func (c *Controller) tryElect(g state.ReplicaGroup, ids []int64, req ElectRequest) (int64, bool) {
	type candidate struct {
		id   int64
		live cluster.ReplicaLive
	}
	var alive []candidate
	for _, id := range ids {
		key := replicaKey(&g, id)
		if _, registered := g.Broker(id); !registered || !c.live.ReplicaAlive(key) {
			continue
		}
		live, _ := c.live.ReplicaLive(key)
		alive = append(alive, candidate{id, live})
	}
	if len(alive) == 0 {
		return 0, false
	}
	has := func(id int64) bool {
		for _, c := range alive {
			if c.id == id {
				return true
			}
		}
		return false
	}
	if g.HasMaster && has(g.MasterID) && (!req.Designate || req.BrokerID == g.MasterID) {
		return g.MasterID, true
	}
	if req.Designate {
		return req.BrokerID, has(req.BrokerID)
	}
	sort.Slice(alive, func(i, j int) bool {
		a, b := alive[i], alive[j]
		switch {
		case a.live.Epoch != b.live.Epoch:
			return a.live.Epoch > b.live.Epoch
		case a.live.MaxOffset != b.live.MaxOffset:
			return a.live.MaxOffset > b.live.MaxOffset
		case a.live.ElectionPriority != b.live.ElectionPriority:
			return a.live.ElectionPriority < b.live.ElectionPriority
		}
		return a.id < b.id
	})
	return alive[0].id, true
}

// notifyRoleChange hands a committed election to the notifier, off the
// caller's goroutine.
func (c *Controller) notifyRoleChange(g state.ReplicaGroup) {
	f := c.notify.Load()
	if f == nil || !c.Options().NotifyBrokerRoleChanged {
		return
	}
	go (*f)(RoleChange{Group: g, Alive: func(id int64) bool { return c.alive(&g, id) }})
}
