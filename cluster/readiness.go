package cluster

import (
	"fmt"
	"time"

	"github.com/hashicorp/raft"
)

// readinessTick is how often readiness is re-evaluated; Ready reads the
// cached result so that it costs nothing on the request path.
const readinessTick = 100 * time.Millisecond

// readiness is the cached answer of Ready, replaced as a whole.
type readiness struct {
	ready  bool
	reason string
}

// Ready reports whether this member may serve client reads, and why not
// (docs/design.md, "Readiness"): it has heard from a leader, has applied what the
// leader had committed, is in the configuration, and its leader contact is
// fresher than MaxStale; a leader is ready once it has taken office. It is a
// single atomic load: every client read asks.
func (n *Node) Ready() (bool, string) {
	r := n.ready.Load()
	return r.ready, r.reason
}

func (n *Node) monitorReadiness() {
	t := time.NewTicker(readinessTick)
	defer t.Stop()
	for {
		n.updateReadiness()
		select {
		case <-t.C:
		case done := <-n.readinessNow:
			n.updateReadiness()
			close(done)
		case <-n.shutdownCh:
			n.ready.Store(&readiness{reason: "shutting down"})
			return
		}
	}
}

// refreshReadiness has the readiness monitor evaluate now and waits until
// the result is stored.
func (n *Node) refreshReadiness() error { return n.askLoop(n.readinessNow) }

// askLoop sends one of the node's loops a request on ask and waits until
// the loop closes the channel it was sent, or the node shuts down.
func (n *Node) askLoop(ask chan<- chan struct{}) error {
	done := make(chan struct{})
	select {
	case ask <- done:
	case <-n.shutdownCh:
		return ErrShutdown
	}
	select {
	case <-done:
		return nil
	case <-n.shutdownCh:
		return ErrShutdown
	}
}

func (n *Node) updateReadiness() {
	ready, reason := n.evaluateReadiness()
	prev := n.ready.Load()
	if ready == prev.ready && reason == prev.reason {
		return // keep the value every request reads where it is
	}
	n.ready.Store(&readiness{ready: ready, reason: reason})
	if ready != prev.ready {
		if ready {
			n.logger.Info("member ready")
		} else {
			n.logger.Warn("member not ready", "reason", reason)
		}
	}
}

func (n *Node) evaluateReadiness() (bool, string) {
	if n.raft.State() == raft.Leader {
		if n.leaderReady.Load() {
			return true, ""
		}
		return false, "leader taking office"
	}
	// The member is caught up when it has applied what was committed one
	// tick ago (sampling one tick back keeps a busy follower from
	// flapping). Only the monitor goroutine touches prevCommit.
	contact := n.raft.LastContact()
	prev := n.prevCommit
	if contact.IsZero() {
		n.prevCommit = 0
	} else {
		n.prevCommit = n.raft.CommitIndex()
	}
	switch {
	case contact.IsZero():
		return false, "no contact with a leader yet"
	case time.Since(contact) > n.cfg.MaxStale:
		return false, "leader contact older than max stale"
	case !n.inConfiguration():
		return false, "not in the cluster configuration"
	case prev == 0 || n.fsm.AppliedIndex() < n.lastFSMEntryAtOrBelow(prev):
		return false, "applying committed entries"
	}
	if why := n.behindLeader(); why != "" {
		return false, why
	}
	return true, ""
}

// behindLeader reports why this member is behind the leader, or "" when it
// is not: it has gone longer than MaxStale without having received and
// applied a commit index the leader reported (in its answer to a heartbeat
// batch, about once a second), or has had no report since it started. Contact with the leader is not enough: a follower that cannot
// store entries (a full disk) still gets heartbeats while its own commit
// index stops at its last stored entry, and a follower that restarted or
// came back from a partition hears heartbeats before the entries it missed.
// With this rule a ready follower's state is never older than MaxStale plus
// one heartbeat-batch round trip. A leader of an older version reports
// nothing; then the rule does not apply. Only the monitor goroutine touches
// caughtUpAt.
func (n *Node) behindLeader() string {
	s := n.leaderCommit.Load()
	switch {
	case s == nil:
		return "no commit index reported by the leader yet"
	case s.unreported:
		return ""
	}
	last := n.raft.LastIndex()
	applied := last >= s.index && n.fsm.AppliedIndex() >= n.lastFSMEntryAtOrBelow(s.index)
	if applied && s.at.After(n.caughtUpAt) {
		n.caughtUpAt = s.at
	}
	switch {
	case !n.caughtUpAt.IsZero() && time.Since(n.caughtUpAt) <= n.cfg.MaxStale:
		return ""
	case last < s.index:
		return fmt.Sprintf("receiving the leader's log (at %d of %d)", last, s.index)
	case !applied:
		return "applying the leader's log"
	}
	return "no commit index of the leader applied within max stale"
}

// fsmEntryScan bounds the walk back over entries the FSM never sees.
const fsmEntryScan = 64

// lastFSMEntryAtOrBelow returns the index of the last entry at or below idx
// that Raft hands to the FSM (commands and configurations). No-ops and
// barriers never reach it, so the FSM's applied index can rest below the
// commit index for good; it must reach this index instead. An entry already
// compacted into a snapshot asks nothing more of the FSM.
func (n *Node) lastFSMEntryAtOrBelow(idx uint64) uint64 {
	for i := idx; i > 0 && idx-i < fsmEntryScan; i-- {
		var l raft.Log
		if err := n.stores.logs.GetLog(i, &l); err != nil {
			return 0
		}
		if l.Type == raft.LogCommand || l.Type == raft.LogConfiguration {
			return i
		}
	}
	return idx - min(idx, fsmEntryScan)
}
