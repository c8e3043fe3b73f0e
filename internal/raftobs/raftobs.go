// Package raftobs delivers a Raft node's leader changes to the watchers of
// a member: the tries at a remote leader, which must learn of a new leader
// at once, and the status page's event ring. Both see the same
// observations, filtered the same way.
package raftobs

import "github.com/hashicorp/raft"

// bufferedChanges is how many leader changes wait for a slow watcher before
// Raft drops the next: a watcher only needs to learn that the leader
// changed, and elections come seconds apart.
const bufferedChanges = 16

// Leaders registers an observer of r's leader changes. The Data of every
// observation on the returned channel is a raft.LeaderObservation; stop
// deregisters the observer, once the watcher stops reading.
func Leaders(r *raft.Raft) (changes <-chan raft.Observation, stop func()) {
	ch := make(chan raft.Observation, bufferedChanges)
	observer := raft.NewObserver(ch, false, func(o *raft.Observation) bool {
		_, ok := o.Data.(raft.LeaderObservation)
		return ok
	})
	r.RegisterObserver(observer)
	return ch, func() { r.DeregisterObserver(observer) }
}
