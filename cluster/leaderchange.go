package cluster

import (
	"sync"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/raftobs"
)

// leaderChanges lets waiting writes learn at once that this member's view
// of the leader changed, instead of polling: Changed returns a channel that
// is closed at the next change.
type leaderChanges struct {
	mu sync.Mutex
	ch chan struct{}
}

func newLeaderChanges() *leaderChanges { return &leaderChanges{ch: make(chan struct{})} }

// Changed returns a channel closed when the leader changes next.
func (l *leaderChanges) Changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ch
}

func (l *leaderChanges) fire() {
	l.mu.Lock()
	close(l.ch)
	l.ch = make(chan struct{})
	l.mu.Unlock()
}

// leaderSilenceLimit is how long a try at the leader may go on while this
// member hears nothing from the leader (no heartbeat, no entries): a leader
// that stopped (paused, or cut off) is asked again, or its successor is,
// while a leader that keeps heartbeating is given the caller's whole
// deadline, however long a large write takes. Registrations and the other
// forwarded commands are idempotent, so a second copy of a write the first
// leader did commit changes nothing.
const leaderSilenceLimit = time.Second

// leaderSignals wake the tries at a remote leader (lane.Cut): changed
// fires at every change of leader that raft observes, quiet whenever a look
// finds the leader silent for leaderSilenceLimit.
type leaderSignals struct {
	changed *leaderChanges
	quiet   *leaderChanges
}

func newLeaderSignals() *leaderSignals {
	return &leaderSignals{changed: newLeaderChanges(), quiet: newLeaderChanges()}
}

// observe feeds r's leader observations into changed until stop closes.
func (s *leaderSignals) observe(r *raft.Raft, stop <-chan struct{}) {
	changes, stopObserving := raftobs.Leaders(r)
	defer stopObserving()
	for {
		select {
		case <-changes:
			s.changed.fire()
		case <-stop:
			return
		}
	}
}

// watchSilence fires quiet whenever a look, every quarter of
// leaderSilenceLimit, finds the leader silent for leaderSilenceLimit; a try
// that began during the silence is thus cut at the next look.
func (s *leaderSignals) watchSilence(r *raft.Raft, stop <-chan struct{}) {
	t := time.NewTicker(leaderSilenceLimit / 4)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if leaderSilent(r) {
				s.quiet.fire()
			}
		case <-stop:
			return
		}
	}
}

// leaderSilent reports whether r has heard nothing from the leader for
// leaderSilenceLimit.
func leaderSilent(r *raft.Raft) bool {
	last := r.LastContact()
	return !last.IsZero() && time.Since(last) > leaderSilenceLimit
}
