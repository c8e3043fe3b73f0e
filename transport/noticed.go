package transport

import (
	"sync/atomic"

	"github.com/hashicorp/raft"
)

// Noticed is a Raft transport that shows every AppendEntries this member
// sends and its answer to Notices (CommitNotices), and counts the
// AppendEntries it sends, notices included, in Sent.
type Noticed struct {
	raft.Transport
	Notices *CommitNotices
	// Sent counts AppendEntries requests sent (heartbeats, replication,
	// notices); it may be nil.
	Sent *atomic.Uint64
}

// NewNoticed wraps inner; notices are sent through inner and counted in
// both sent (all AppendEntries) and notices (notices alone), either of
// which may be nil.
func NewNoticed(inner raft.Transport, sent, notices *atomic.Uint64) *Noticed {
	t := &Noticed{Transport: inner, Sent: sent}
	t.Notices = NewCommitNotices(func(id raft.ServerID, target raft.ServerAddress, req *raft.AppendEntriesRequest, resp *raft.AppendEntriesResponse) error {
		t.count()
		return inner.AppendEntries(id, target, req, resp)
	}, notices)
	return t
}

func (t *Noticed) count() {
	if t.Sent != nil {
		t.Sent.Add(1)
	}
}

// AppendEntries sends through the inner transport and shows the exchange
// to Notices.
func (t *Noticed) AppendEntries(id raft.ServerID, target raft.ServerAddress, req *raft.AppendEntriesRequest, resp *raft.AppendEntriesResponse) error {
	t.count()
	err := t.Transport.AppendEntries(id, target, req, resp)
	t.Notices.Observe(id, target, req, resp, err)
	return err
}

// AppendEntriesPipeline opens the inner transport's pipeline, if it has
// one, and shows each answer to Notices before Raft sees it.
func (t *Noticed) AppendEntriesPipeline(id raft.ServerID, target raft.ServerAddress) (raft.AppendPipeline, error) {
	p, err := t.Transport.AppendEntriesPipeline(id, target)
	if err != nil {
		return nil, err
	}
	return newWatchedPipeline(p, func(fut raft.AppendFuture) {
		t.Notices.Observe(id, target, fut.Request(), fut.Response(), fut.Error())
	}, t.count), nil
}

// Close closes the inner transport if it can be closed.
func (t *Noticed) Close() error {
	if c, ok := t.Transport.(raft.WithClose); ok {
		return c.Close()
	}
	return nil
}

// ForRaft returns the transport to give Raft: t itself, with pre-vote
// when the inner transport supports it (Raft looks for raft.WithPreVote
// on the transport it is given).
func (t *Noticed) ForRaft() raft.Transport {
	if _, ok := t.Transport.(raft.WithPreVote); ok {
		return noticedWithPreVote{t}
	}
	return t
}

// noticedWithPreVote is a Noticed whose inner transport sends pre-votes.
type noticedWithPreVote struct{ *Noticed }

// RequestPreVote sends a pre-vote through the inner transport.
func (t noticedWithPreVote) RequestPreVote(id raft.ServerID, target raft.ServerAddress, args *raft.RequestPreVoteRequest, resp *raft.RequestPreVoteResponse) error {
	return t.Transport.(raft.WithPreVote).RequestPreVote(id, target, args, resp)
}
