package cluster

import (
	"context"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/feature"
)

// registerSplit proposes a registration that may be too large for one
// entry. One that fits goes as it is; a larger one goes as the parts of
// fsm.SplitRegistration, none of which deletes unlisted topics since none
// lists the whole table. When the registration deletes unlisted topics
// (deleteTopicWithBrokerRegistration), DropUnlistedTopics entries follow
// the parts with what the whole table no longer lists, computed from the
// state the parts left; parts that would change nothing (the split rounds
// of a broker already applied them) are not proposed again. Below the
// cluster version of feature.SplitDeletion nothing is deleted. It returns
// the registration's answer and the index of the last entry it proposed,
// 0 when none.
func (p *proposer) registerSplit(ctx context.Context, cmd *state.RegisterBroker) (state.RegisterResult, uint64, error) {
	entries, err := fsm.SplitRegistration(cmd)
	if err != nil {
		return state.RegisterResult{}, 0, err
	}
	deleting := cmd.DeleteUnlistedTopics && len(entries) > 1
	if deleting && !p.fsm.Gate().Allows(feature.SplitDeletion) {
		deleting = false
		p.warnSplitDrops(cmd)
	}
	var res any
	var index uint64
	if !cmd.DeleteUnlistedTopics || len(entries) == 1 || p.partsChange(cmd) {
		for _, e := range entries {
			if res, index, err = p.propose(ctx, fsm.RegisterBrokerType, e, nil); err != nil {
				return state.RegisterResult{}, 0, err
			}
		}
	}
	if deleting {
		if last, err := p.dropUnlisted(ctx, cmd); err != nil {
			return state.RegisterResult{}, 0, err
		} else if last != 0 {
			index = last
		}
	}
	r, ok := res.(state.RegisterResult)
	if !ok {
		r = p.fsm.RegisterResult(cmd)
	}
	return r, index, nil
}

// partsChange reports whether the parts of cmd, which delete nothing,
// would change the state.
func (p *proposer) partsChange(cmd *state.RegisterBroker) bool {
	parts := *cmd
	parts.DeleteUnlistedTopics = false
	return p.fsm.WouldChange(&parts)
}

// dropUnlisted proposes the DropUnlistedTopics entries of cmd's whole
// table against the current state, and returns the index of the last one
// (0 when nothing is to go).
func (p *proposer) dropUnlisted(ctx context.Context, cmd *state.RegisterBroker) (uint64, error) {
	d := p.fsm.UnlistedTopics(cmd)
	if d == nil {
		return 0, nil
	}
	entries, err := fsm.SplitDrops(d)
	if err != nil {
		return 0, err
	}
	var index uint64
	for _, e := range entries {
		if _, index, err = p.propose(ctx, fsm.DropUnlistedTopicsType, e, nil); err != nil {
			return 0, err
		}
	}
	return index, nil
}

// warnSplitDrops logs, once per process, that a split registration deletes
// no unlisted topics because the cluster version predates the feature.
func (p *proposer) warnSplitDrops(cmd *state.RegisterBroker) {
	if !p.splitDropsWarned.CompareAndSwap(false, true) {
		return
	}
	p.logger.Warn("a registration too large for one log entry deletes no unlisted topics below this cluster version; "+
		"finalize the upgrade (raftnsctl upgrade finalize) to delete them", "broker", cmd.BrokerName, "addr", cmd.BrokerAddr,
		"topics", len(cmd.TopicConfigs), "needs", feature.SplitDeletion.String(),
		"clusterVersion", p.fsm.ClusterVersion().String())
}
