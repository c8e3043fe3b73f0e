package cluster

import (
	"slices"
	"sync"
	"time"

	"github.com/raftns/raftns/fsm"
)

// readyView is who, among the members, serves reads: what the address
// service lists (docs/operators/operations.md, "The address service"). Every
// follower's heartbeat batch, about once a second, says whether the
// follower is ready; the leader keeps the last word of each and puts the
// members it counts ready in its answer to every batch, and a follower
// keeps the latest such answer. Nothing is replicated and no request is
// added: the view rides on the batch each member already sends.
type readyView struct {
	// fresh is how long a follower's last batch counts; one that sent
	// none for longer is taken to be down.
	fresh time.Duration

	mu sync.Mutex
	// heard is the leader's table: each follower's last batch in this term
	// of office. officeSince is when the term began; zero out of office.
	heard       map[string]heardReady
	officeSince time.Time
	// reported is a follower's copy of the leader's answer; nil before the
	// first one, or when the leader is of a release that reports none.
	reported []string
}

type heardReady struct {
	at    time.Time
	ready bool
}

// directoryIDs lists the members of the replicated member directory: the
// candidates the leader answers a batch about. Reading it costs a read
// lock, where the Raft configuration would cost a round trip through
// Raft's main loop on every batch; a member the directory does not list
// yet has no client address to be listed with anyway.
func directoryIDs(f *fsm.FSM) []string {
	members := f.Members()
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.ID
	}
	return ids
}

func newReadyView(batchInterval time.Duration) *readyView {
	return &readyView{fresh: max(3*batchInterval, 2*time.Second), heard: map[string]heardReady{}}
}

// takeOffice starts the leader's table afresh.
func (v *readyView) takeOffice(now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	clear(v.heard)
	v.officeSince = now
}

// leaveOffice drops the leader's table.
func (v *readyView) leaveOffice() {
	v.mu.Lock()
	defer v.mu.Unlock()
	clear(v.heard)
	v.officeSince = time.Time{}
}

// heardFrom records, on the leader, a follower's batch.
func (v *readyView) heardFrom(id string, ready bool, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.heard[id] = heardReady{at: now, ready: ready}
}

// leaderReady lists, on the leader, the members it counts ready among
// candidates: itself (self, when in office), every follower whose last
// batch said so within fresh, and, during the first fresh of the term, a
// follower it has not heard from yet (so a new leader does not drop
// members from the list before their first batch reaches it).
func (v *readyView) leaderReady(self string, candidates []string, now time.Time) []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.officeSince.IsZero() {
		return nil
	}
	var out []string
	for _, id := range candidates {
		h, ok := v.heard[id]
		switch {
		case id == self,
			ok && h.ready && now.Sub(h.at) <= v.fresh,
			!ok && now.Sub(v.officeSince) <= v.fresh:
			out = append(out, id)
		}
	}
	return out
}

// noteReport keeps, on a follower, the list the leader answered with.
func (v *readyView) noteReport(ids []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.reported = slices.Clone(ids)
}

// followerReady returns the leader's last list and whether there is one.
func (v *readyView) followerReady() ([]string, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.reported, v.reported != nil
}
