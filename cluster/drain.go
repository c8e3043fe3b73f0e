package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/feature"
)

// DefaultDrain asks for the leader's Config.RemoveDrain.
const DefaultDrain time.Duration = -1

// MaxDrain is the longest drain a removal may ask for.
const MaxDrain = time.Hour

// RemoveOptions are an operator's choices for removing a member.
type RemoveOptions struct {
	// Force removes a voter even when the voters left could not form a
	// quorum without it, and going from two voters to one.
	Force bool
	// Drain is how long the member keeps serving, no longer listed by the
	// address service, before it is removed (docs/operators/operations.md, "Adding
	// and removing members without touching brokers and clients"):
	// DefaultDrain for the leader's Config.RemoveDrain, 0 to remove at once.
	Drain time.Duration
}

// drainRefusal says why a removal cannot drain: nil once the cluster
// version gate allows SetMemberDraining, which every member must read.
func (n *Node) drainRefusal() error { return n.Gate().Check(feature.DrainedRemoval) }

// drains times, on the leader, the drains of members being removed. The
// drain itself is replicated (state.DrainingMember); its end is timed on the
// leader's own monotonic clock: from when the leader began it or, for a
// drain it inherited from an earlier leader, for what is left of it by the
// wall-clock start the drain records, at most the whole drain time. So
// leader changes neither restart a drain nor stretch it beyond one drain
// time from the change, and a clock that is off shortens or lengthens
// only the drain the new leader inherited.
type drains struct {
	mu sync.Mutex
	// ends is when each drain this leader knows of is over.
	ends map[string]time.Time
	// finishing marks the removals under way.
	finishing map[string]bool
	// warned is when a stuck removal was last logged.
	warned map[string]time.Time
}

func newDrains() *drains {
	return &drains{ends: map[string]time.Time{}, finishing: map[string]bool{}, warned: map[string]time.Time{}}
}

// reset forgets every drain's end: a new term of office derives them again
// from the replicated drains (due).
func (d *drains) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	clear(d.ends)
	clear(d.warned)
}

// due returns whether the drain of dm is over, starting its clock if
// this leader had none for it, and marks it finishing when it is.
func (d *drains) due(dm state.DrainingMember, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	end, ok := d.ends[dm.ID]
	if !ok {
		left := min(max(dm.SinceMillis+dm.DrainMillis-now.UnixMilli(), 0), dm.DrainMillis)
		end = now.Add(time.Duration(left) * time.Millisecond)
		d.ends[dm.ID] = end
	}
	if now.Before(end) || d.finishing[dm.ID] {
		return false
	}
	d.finishing[dm.ID] = true
	return true
}

// started records a drain this leader began.
func (d *drains) started(id string, end time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ends[id] = end
}

// finished ends the finishing mark; it reports whether a failure should
// be logged (at most every 30 s per member).
func (d *drains) finished(id string, failed bool, now time.Time) (warn bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.finishing, id)
	if !failed {
		delete(d.ends, id)
		delete(d.warned, id)
		return false
	}
	if now.Sub(d.warned[id]) < 30*time.Second {
		return false
	}
	d.warned[id] = now
	return true
}

// startDrain begins the drain of the member s, or reports the one under
// way; it removes s at once when the drain is zero or cannot be
// replicated.
func (m *membership) startDrain(ctx context.Context, s raft.Server, opts RemoveOptions) (adminapi.RemovePeer, error) {
	drain := opts.Drain
	if drain < 0 {
		drain = m.cfg.RemoveDrain
	}
	if cur, ok := m.fsm.Draining(string(s.ID)); ok && drain > 0 {
		return adminapi.RemovePeer{Result: adminapi.RemoveResultDraining, DrainMillis: cur.DrainMillis}, nil
	}
	var note string
	if drain > 0 {
		if err := m.drainRefusal(); err != nil {
			note, drain = "removed at once, without a drain: "+err.Error(), 0
		}
	}
	if drain <= 0 {
		err := m.removeNow(ctx, s, opts.Force)
		return adminapi.RemovePeer{Result: adminapi.RemoveResultRemoved, Note: note}, err
	}
	if s.Suffrage == raft.Voter && !opts.Force {
		if err := m.checkQuorumWithout(s.ID); err != nil {
			return adminapi.RemovePeer{}, err
		}
	}
	now := time.Now()
	dm := state.DrainingMember{ID: string(s.ID), DrainMillis: drain.Milliseconds(), SinceMillis: now.UnixMilli(), Force: opts.Force}
	if _, err := m.propose(ctx, fsm.SetMemberDrainingType, &state.SetMemberDraining{Member: dm, Draining: true}); err != nil {
		return adminapi.RemovePeer{}, fmt.Errorf("start the drain of %s: %w", s.ID, err)
	}
	m.drains.started(dm.ID, now.Add(drain))
	m.logger.Info("member draining: no longer listed by the address service; removed when the drain is over",
		"id", s.ID, "drain", drain)
	return adminapi.RemovePeer{Result: adminapi.RemoveResultDraining, DrainMillis: dm.DrainMillis}, nil
}

// removeNow removes s from the configuration: the leader itself by
// handing over leadership first.
func (m *membership) removeNow(ctx context.Context, s raft.Server, force bool) error {
	if string(s.ID) == m.cfg.ID {
		return m.removeSelf(ctx, force)
	}
	return m.removeServer(s, force)
}

// finishDrains removes, on the leader, every member whose drain is over;
// each removal runs on its own goroutine so the leader loop does not
// wait for it. The drain of a member that left the configuration some
// other way is ended.
func (m *membership) finishDrains() {
	conf, err := currentConfiguration(m.raft)
	if err != nil {
		return
	}
	now := time.Now()
	for _, dm := range m.fsm.DrainingMembers() {
		s, ok := serverOf(conf, dm.ID)
		switch {
		case !ok:
			m.applyMemberChange(fsm.SetMemberDrainingType, &state.SetMemberDraining{Member: state.DrainingMember{ID: dm.ID}})
		case m.drains.due(dm, now):
			go m.finishDrain(s, dm.Force)
		}
	}
}

// serverOf finds the member id in conf.
func serverOf(conf raft.Configuration, id string) (raft.Server, bool) {
	for _, s := range conf.Servers {
		if string(s.ID) == id {
			return s, true
		}
	}
	return raft.Server{}, false
}

func (m *membership) finishDrain(s raft.Server, force bool) {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.ForwardHold+membershipTimeout)
	defer cancel()
	err := m.removeNow(ctx, s, force)
	if m.drains.finished(string(s.ID), err != nil, time.Now()) {
		m.logger.Warn("drain over but the member could not be removed yet; retrying", "id", s.ID, "error", err)
	}
	if err == nil {
		m.logger.Info("drain over; member removed", "id", s.ID)
	}
}

// encodeRemoveResult and decodeRemoveResult carry a removal's answer from
// the leader; a leader of a release without drains answers nothing, which
// reads as removed.
func encodeRemoveResult(r adminapi.RemovePeer) ([]byte, error) { return json.Marshal(r) }

func decodeRemoveResult(b []byte) (any, error) {
	if len(b) == 0 {
		return adminapi.RemovePeer{Result: adminapi.RemoveResultRemoved}, nil
	}
	var r adminapi.RemovePeer
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, errors.New("cluster: undecodable removal answer from the leader")
	}
	return r, nil
}
