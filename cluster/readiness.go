package cluster

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
)

// readinessTick is how often readiness is re-evaluated; Ready reads the
// cached result so that it costs nothing on the request path.
const readinessTick = 100 * time.Millisecond

// verdict is the cached answer of Ready, replaced as a whole.
type verdict struct {
	ready  bool
	reason string
}

// readinessMonitor decides whether this member may serve client reads
// (docs/contributors/design.md, "Readiness"): it re-evaluates every readinessTick, or at
// once when asked, and caches the answer for Ready.
type readinessMonitor struct {
	maxStale time.Duration
	logger   hclog.Logger
	raft     *raft.Raft
	fsm      *fsm.FSM
	logs     raft.LogStore
	// inOffice reports whether this member is a leader that took office.
	inOffice func() bool
	// inConfig reports whether this member is in the configuration;
	// removed whether it found it was removed from the cluster.
	inConfig func() bool
	removed  func() bool
	stop     <-chan struct{}

	current atomic.Pointer[verdict]
	// now asks the monitor to evaluate at once; it closes the channel it
	// was sent when the result is stored.
	now chan chan struct{}
	// prevCommit is the monitor's commit-index sample; appliedAt is when
	// the monitor last found the member had applied the sample before it.
	prevCommit uint64
	appliedAt  time.Time
	// leaderAt is when the monitor last found this member a leader in
	// office.
	leaderAt time.Time
	// leaderCommit is the leader's commit index as its last answer to a
	// heartbeat batch gave it; caughtUpAt is when the latest such report
	// that this member had applied arrived.
	leaderCommit atomic.Pointer[commitSample]
	caughtUpAt   time.Time
}

// run re-evaluates until stop closes.
func (r *readinessMonitor) run() {
	t := time.NewTicker(readinessTick)
	defer t.Stop()
	for {
		r.update()
		select {
		case <-t.C:
		case done := <-r.now:
			r.update()
			close(done)
		case <-r.stop:
			r.current.Store(&verdict{reason: "shutting down"})
			return
		}
	}
}

// refresh has the monitor evaluate now and waits until the result is
// stored.
func (r *readinessMonitor) refresh() error { return askLoop(r.now, r.stop) }

// askLoop sends one of the node's loops a request on ask and waits until
// the loop closes the channel it was sent, or stop closes.
func askLoop(ask chan<- chan struct{}, stop <-chan struct{}) error {
	done := make(chan struct{})
	select {
	case ask <- done:
	case <-stop:
		return ErrShutdown
	}
	select {
	case <-done:
		return nil
	case <-stop:
		return ErrShutdown
	}
}

func (r *readinessMonitor) update() {
	ready, reason := r.evaluate()
	prev := r.current.Load()
	if ready == prev.ready && reason == prev.reason {
		return // keep the value every request reads where it is
	}
	r.current.Store(&verdict{ready: ready, reason: reason})
	if ready != prev.ready {
		if ready {
			r.logger.Info("member ready")
		} else {
			r.logger.Warn("member not ready", "reason", reason)
		}
	}
}

func (r *readinessMonitor) evaluate() (bool, string) {
	if r.removed() {
		return false, "removed from the cluster"
	}
	if r.raft.State() == raft.Leader {
		if r.inOffice() {
			// A leader in office is the freshest state there is: should it
			// lose leadership, it counts as having heard from a leader and
			// caught up now, and stays ready for as long as a follower that
			// lost its leader would (docs/contributors/design.md, "Readiness").
			now := time.Now()
			r.leaderAt, r.appliedAt, r.caughtUpAt = now, now, now
			return true, ""
		}
		return false, "leader taking office"
	}
	contact := r.raft.LastContact()
	if r.leaderAt.After(contact) {
		contact = r.leaderAt
	}
	switch {
	case contact.IsZero():
		r.prevCommit = 0
		return false, "no contact with a leader yet"
	case time.Since(contact) > r.maxStale:
		return false, "leader contact older than max stale"
	case !r.inConfig():
		return false, "not in the cluster configuration"
	}
	if why := r.behindOwnCommit(); why != "" {
		return false, why
	}
	if why := r.behindLeader(); why != "" {
		return false, why
	}
	return true, ""
}

// behindOwnCommit reports why this member is behind its own commit index,
// or "" when it is not. The member is caught up when it has applied what
// was committed one tick ago (sampling one tick back keeps a busy follower
// from flapping), and it stays ready while it applies what came after for
// up to MaxStale: a member busy applying a large entry serves the state it
// had when it was last caught up, which is no older than any state this
// rule allows (docs/contributors/design.md, "Readiness"). A member that has not been
// caught up since it started is not ready. Only the monitor goroutine
// touches prevCommit and appliedAt.
func (r *readinessMonitor) behindOwnCommit() string {
	prev := r.prevCommit
	r.prevCommit = r.raft.CommitIndex()
	now := time.Now()
	if prev != 0 && r.fsm.AppliedIndex() >= lastFSMEntryAtOrBelow(r.logs, prev) {
		r.appliedAt = now
	}
	switch {
	case r.appliedAt.IsZero():
		return "applying committed entries"
	case now.Sub(r.appliedAt) > r.maxStale:
		return "applying committed entries for longer than max stale"
	}
	return ""
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
func (r *readinessMonitor) behindLeader() string {
	s := r.leaderCommit.Load()
	switch {
	case s == nil && !r.caughtUpAt.IsZero() && time.Since(r.caughtUpAt) <= r.maxStale:
		return "" // a leader until a moment ago
	case s == nil:
		return "no commit index reported by the leader yet"
	case s.unreported:
		return ""
	}
	last := r.raft.LastIndex()
	applied := last >= s.index && r.fsm.AppliedIndex() >= lastFSMEntryAtOrBelow(r.logs, s.index)
	if applied && s.at.After(r.caughtUpAt) {
		r.caughtUpAt = s.at
	}
	switch {
	case !r.caughtUpAt.IsZero() && time.Since(r.caughtUpAt) <= r.maxStale:
		return ""
	case last < s.index:
		return fmt.Sprintf("receiving the leader's log (at %d of %d)", last, s.index)
	case !applied:
		return "applying the leader's log"
	}
	return "no commit index of the leader applied within max stale"
}

// commitSample is a commit index the leader reported, and when;
// unreported when the leader answered without one (an older version).
type commitSample struct {
	index      uint64
	at         time.Time
	unreported bool
}

// noteLeaderCommit keeps the commit index the leader put in its answer to a
// heartbeat batch.
func (r *readinessMonitor) noteLeaderCommit(result []byte) {
	if len(result) == 0 {
		r.leaderCommit.Store(&commitSample{at: time.Now(), unreported: true})
		return
	}
	if idx, err := strconv.ParseUint(string(result), 10, 64); err == nil {
		r.leaderCommit.Store(&commitSample{index: idx, at: time.Now()})
	}
}

// fsmEntryScan bounds the walk back over entries the FSM never sees.
const fsmEntryScan = 64

// lastFSMEntryAtOrBelow returns the index of the last entry at or below idx
// that Raft hands to the FSM (commands and configurations). No-ops and
// barriers never reach it, so the FSM's applied index can rest below the
// commit index for good; it must reach this index instead. An entry already
// compacted into a snapshot asks nothing more of the FSM.
func lastFSMEntryAtOrBelow(logs raft.LogStore, idx uint64) uint64 {
	for i := idx; i > 0 && idx-i < fsmEntryScan; i-- {
		var l raft.Log
		if err := logs.GetLog(i, &l); err != nil {
			return 0
		}
		if l.Type == raft.LogCommand || l.Type == raft.LogConfiguration {
			return i
		}
	}
	return idx - min(idx, fsmEntryScan)
}
