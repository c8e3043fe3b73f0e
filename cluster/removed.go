package cluster

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// Removal detection. A member removed from the configuration while it
// runs receives the entry that removes it and then hears no more from the
// leader; one that was away when it was removed still counts itself a
// voter and would campaign, every one to two seconds, for ever. Either
// way, once a member has heard no leader for removedGrace it looks:
// absent from its own latest configuration while holding Raft state, or
// told by a ready member that the cluster's configuration no longer has
// it, it concludes it was removed (docs/operators/operations.md, "Adding and
// removing members without touching brokers and clients").
const (
	removedTick = 500 * time.Millisecond
	// removedGraceMin is the least time without a leader before a member
	// looks whether it was removed: a leader elected meanwhile, or one
	// that contacts a member it just added, is heard from well before.
	removedGraceMin = 5 * time.Second
	// removedProbeEvery spaces the questions a member without a leader
	// asks the others.
	removedProbeEvery = 2 * time.Second
)

// removalWatch runs on every member until it finds it was removed.
type removalWatch struct {
	self string
	raft *raft.Raft
	// grace is how long without a leader before the member looks.
	grace time.Duration
	// probe asks another member for its status.
	probe func(ctx context.Context, addr string) (adminapi.Status, error)
	// removed is called once with what showed the removal.
	removed func(reason string)
	stop    <-chan struct{}
}

func (w *removalWatch) run() {
	started := time.Now()
	var nextProbe time.Time
	for poll.Sleep(removedTick, w.stop) {
		silent := time.Since(started)
		if c := w.raft.LastContact(); !c.IsZero() {
			silent = min(silent, time.Since(c))
		}
		if w.raft.State() == raft.Leader || silent < w.grace {
			continue
		}
		conf, err := currentConfiguration(w.raft)
		if err != nil {
			continue
		}
		s, in := serverOf(conf, w.self)
		if !in {
			if w.raft.LastIndex() > 0 {
				w.removed(fmt.Sprintf("this member is not in its latest Raft configuration and has heard no leader for %s",
					silent.Round(time.Second)))
				return
			}
			continue
		}
		if s.Suffrage != raft.Voter || time.Now().Before(nextProbe) {
			continue
		}
		nextProbe = time.Now().Add(removedProbeEvery)
		if reason := w.askOthers(conf); reason != "" {
			w.removed(reason)
			return
		}
	}
}

// askOthers asks the other members of conf for their status; it returns
// why this member counts as removed when a ready member, following a
// leader, has a configuration without it.
func (w *removalWatch) askOthers(conf raft.Configuration) string {
	for _, s := range conf.Servers {
		if string(s.ID) == w.self {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
		st, err := w.probe(ctx, string(s.Address))
		cancel()
		if err != nil || !st.Ready || st.LeaderID == "" || len(st.Configuration) == 0 {
			continue
		}
		if !slices.Contains(st.Configuration, w.self) {
			return fmt.Sprintf("member %s, which follows leader %s, has a configuration without this member", st.ID, st.LeaderID)
		}
	}
	return ""
}

// leaveAsRemoved is what a member does once it found it was removed: it
// says so, stops counting itself ready, and stops its Raft node, so it
// neither campaigns nor takes part any more. The process keeps running:
// its admin port says "removed from the cluster", and the RocketMQ port
// answers every request saying so.
func (n *Node) leaveAsRemoved(reason string) {
	if !n.removed.CompareAndSwap(false, true) {
		return
	}
	n.logger.Warn("removed from the cluster: this member stops its Raft node and refuses client requests; "+
		"to make it a member again, empty its data directory and add it (raftnsctl peers add)", "reason", reason)
	_ = n.readiness.refresh()
	if err := n.raft.Shutdown().Error(); err != nil {
		n.logger.Warn("stopping the Raft node of a removed member", "error", err)
	}
}

// Removed reports whether this member found it was removed from the
// cluster; it then refuses client requests.
func (n *Node) Removed() bool { return n.removed.Load() }

// Membership is this member's part in the cluster as the status shows it:
// "removed", "draining" while it is being removed, or "" for a member.
func (n *Node) Membership() string {
	if n.Removed() {
		return adminapi.MembershipRemoved
	}
	if _, ok := n.fsm.Draining(n.cfg.ID); ok {
		return adminapi.MembershipDraining
	}
	return ""
}
