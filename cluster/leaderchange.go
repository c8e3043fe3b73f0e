package cluster

import (
	"sync"

	"github.com/hashicorp/raft"
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

// observeLeaderChanges feeds raft's leader observations into n.leaderChange
// until shutdown.
func (n *Node) observeLeaderChanges() {
	obsCh := make(chan raft.Observation, 16)
	obs := raft.NewObserver(obsCh, false, func(o *raft.Observation) bool {
		_, ok := o.Data.(raft.LeaderObservation)
		return ok
	})
	n.raft.RegisterObserver(obs)
	defer n.raft.DeregisterObserver(obs)
	for {
		select {
		case <-obsCh:
			n.leaderChange.fire()
		case <-n.shutdownCh:
			return
		}
	}
}
