package cluster

import (
	"errors"

	"github.com/hashicorp/raft"
)

// errNotAdmitted answers the vote requests a member refuses while it waits
// to be re-admitted.
var errNotAdmitted = errors.New("this member started on new storage and has not been re-admitted: it does not vote")

// voteGuard sits between Raft and its transport on a member whose storage
// is new (admission.go). While allow is false it answers every vote and
// pre-vote request with a refusal, refuses a leader's request to campaign
// at once (TimeoutNow), and fails its own vote requests, so the member
// neither helps elect a leader nor becomes one. It does this below Raft,
// which would otherwise grant its vote from an empty configuration. It
// also puts a commit index ahead of the entries it came with (commitFirst).
type voteGuard struct {
	raft.Transport
	commits commitFirst
	allow   func() bool
	out     chan raft.RPC
	stop    <-chan struct{}
}

// guardVotes wraps t; the returned transport offers pre-votes when t does.
// run must be started for requests to reach Raft.
func guardVotes(t raft.Transport, allow func() bool, stop <-chan struct{}) (raft.Transport, *voteGuard) {
	g := &voteGuard{Transport: t, allow: allow, out: make(chan raft.RPC), stop: stop}
	if pv, ok := t.(raft.WithPreVote); ok {
		return &preVoteGuard{voteGuard: g, pre: pv}, g
	}
	return g, g
}

// Consumer is where Raft reads requests: those the guard lets through.
func (g *voteGuard) Consumer() <-chan raft.RPC { return g.out }

// run passes requests from the transport to Raft until stop closes.
func (g *voteGuard) run() {
	in := g.Transport.Consumer()
	for {
		select {
		case rpc := <-in:
			if g.refused(rpc) {
				continue
			}
			if pre, ok := g.commits.before(rpc); ok {
				select {
				case g.out <- pre:
				case <-g.stop:
					return
				}
			}
			select {
			case g.out <- rpc:
			case <-g.stop:
				return
			}
		case <-g.stop:
			return
		}
	}
}

// refused answers rpc itself when it is a request the member may not
// serve yet.
func (g *voteGuard) refused(rpc raft.RPC) bool {
	switch rpc.Command.(type) {
	case *raft.RequestVoteRequest, *raft.RequestPreVoteRequest, *raft.TimeoutNowRequest:
		if !g.allow() {
			rpc.Respond(nil, errNotAdmitted)
			return true
		}
	}
	return false
}

// RequestVote asks for a vote only once the member may vote itself.
func (g *voteGuard) RequestVote(id raft.ServerID, target raft.ServerAddress, args *raft.RequestVoteRequest, resp *raft.RequestVoteResponse) error {
	if !g.allow() {
		return errNotAdmitted
	}
	return g.Transport.RequestVote(id, target, args, resp)
}

// Close closes the transport when it can be closed.
func (g *voteGuard) Close() error {
	if c, ok := g.Transport.(raft.WithClose); ok {
		return c.Close()
	}
	return nil
}

// preVoteGuard is the guard of a transport with pre-votes.
type preVoteGuard struct {
	*voteGuard
	pre raft.WithPreVote
}

// RequestPreVote asks for a pre-vote only once the member may vote.
func (g *preVoteGuard) RequestPreVote(id raft.ServerID, target raft.ServerAddress, args *raft.RequestPreVoteRequest, resp *raft.RequestPreVoteResponse) error {
	if !g.allow() {
		return errNotAdmitted
	}
	return g.pre.RequestPreVote(id, target, args, resp)
}
