package transport

import (
	"sync"
	"sync/atomic"

	"github.com/hashicorp/raft"
)

// AppendFunc sends one AppendEntries to a member and waits for its answer
// (raft.Transport's AppendEntries).
type AppendFunc func(id raft.ServerID, target raft.ServerAddress, req *raft.AppendEntriesRequest, resp *raft.AppendEntriesResponse) error

// CommitNotices lets a leader tell its followers that an index is
// committed at once, without appending a log entry.
//
// hashicorp/raft tells a follower the commit index only in AppendEntries
// that carry entries, or in an empty one after CommitTimeout: its
// heartbeats carry none. A follower that forwarded a write and waits to
// apply it would wait for the next write or the timeout.
//
// CommitNotices watches every AppendEntries the leader sends and the
// answer (Observe) and remembers, per follower, the last entry the
// follower acknowledged as matching the leader's log: the index and term
// just after the entries of a successful request. To tell a follower that
// index i is committed (Committed), it sends it one AppendEntries with no
// entries, PrevLogEntry and PrevLogTerm set to that acknowledged entry and
// LeaderCommitIndex set to the lesser of i and the acknowledged index.
// The follower checks PrevLogEntry/PrevLogTerm as for any AppendEntries,
// so by the log matching property its log up to the commit index it sets
// is the leader's: the notice is as safe as the empty AppendEntries Raft
// sends after CommitTimeout. It goes in the term the acknowledgement was
// made in, and only with an acknowledgement made in the newest term this
// member led; a follower that has seen a newer term refuses it, and a
// refused or failed notice changes nothing. A follower that has not acknowledged i
// yet gets its notice when it does (the request that carried i was built
// before i was committed). Up to maxNoticesInFlight notices are in flight
// per follower, each with a higher commit index than the last one sent:
// a notice waits in the follower's Raft loop behind whatever that loop is
// storing, and a write committed meanwhile should not wait for that
// notice's answer too. None is sent to a follower already told (by any
// request it accepted) an index as high.
type CommitNotices struct {
	send AppendFunc
	// sent counts notices sent; it may be nil.
	sent *atomic.Uint64

	mu        sync.Mutex
	followers map[raft.ServerID]*noticeState
	// term is the newest term this member sent AppendEntries in. Only
	// what followers acknowledged in it is used: this member's log of an
	// older term may have lost entries since (a later leader replaced
	// them), so a follower matching that log up to an index proves
	// nothing about the committed entries below it.
	term uint64
}

// noticeState is what the leader knows of one follower.
type noticeState struct {
	addr raft.ServerAddress
	// header and leader are copied from the latest request the follower
	// accepted: they name this leader.
	header raft.RPCHeader
	leader []byte
	// term is the leader's term of the acknowledgement.
	term              uint64
	ackIndex, ackTerm uint64
	// told is the highest commit index the follower is known to have
	// learned from a request it accepted in term.
	told uint64
	// owed is the highest committed index it should learn.
	owed uint64
	// inFlight counts notices sent and not answered yet; sent is the
	// highest commit index any of them carries.
	inFlight int
	sent     uint64
	// stalled is set when a notice failed or was refused, and cleared by
	// the next request the follower accepts: a follower that is down or
	// was removed is not sent one notice per commit. accepted counts the
	// requests it accepted, so that a failed notice does not stall a
	// follower that accepted one meanwhile.
	stalled  bool
	accepted uint64
}

// maxNoticesInFlight bounds the notices sent to one follower and not yet
// answered.
const maxNoticesInFlight = 4

// NewCommitNotices returns notices sent through send, counted in sent
// (which may be nil).
func NewCommitNotices(send AppendFunc, sent *atomic.Uint64) *CommitNotices {
	return &CommitNotices{send: send, sent: sent, followers: map[raft.ServerID]*noticeState{}}
}

// Observe records an AppendEntries this member sent to id at target, as
// the leader, and the answer (err, resp). It sends a notice now due.
func (c *CommitNotices) Observe(id raft.ServerID, target raft.ServerAddress, req *raft.AppendEntriesRequest, resp *raft.AppendEntriesResponse, err error) {
	if req == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.term = max(c.term, req.Term)
	if err != nil || resp == nil || !resp.Success || resp.Term != req.Term {
		return
	}
	f := c.followers[id]
	if f == nil {
		f = &noticeState{}
		c.followers[id] = f
	}
	switch {
	case req.Term < f.term:
		return
	case req.Term > f.term:
		// A new leadership: what was acknowledged before proves nothing
		// about this term's requests.
		f.term, f.ackIndex, f.ackTerm, f.told, f.sent = req.Term, 0, 0, 0, 0
	}
	f.stalled = false
	f.accepted++
	f.addr, f.header, f.leader = target, req.RPCHeader, req.Leader //nolint:staticcheck // Leader is set by raft for old followers
	last, lastTerm := req.PrevLogEntry, req.PrevLogTerm
	if n := len(req.Entries); n > 0 {
		last, lastTerm = req.Entries[n-1].Index, req.Entries[n-1].Term
	}
	if last > f.ackIndex {
		f.ackIndex, f.ackTerm = last, lastTerm
	}
	// The follower set its commit index to at least the lesser of the
	// leader's and the last entry the request proved it holds.
	if learned := min(req.LeaderCommitIndex, last); learned > f.told {
		f.told = learned
	}
	c.sendLocked(id, f)
}

// Committed tells every follower, as soon as it can be told safely, that
// index is committed. The caller must know it is: this member, as the
// leader, applied it.
func (c *CommitNotices) Committed(index uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, f := range c.followers {
		if index > f.owed {
			f.owed = index
		}
		c.sendLocked(id, f)
	}
}

// sendLocked sends f its notice if one is due and none is in flight.
func (c *CommitNotices) sendLocked(id raft.ServerID, f *noticeState) {
	req := f.noticeDue(c.term)
	if req == nil {
		return
	}
	f.inFlight++
	f.sent = req.LeaderCommitIndex
	if c.sent != nil {
		c.sent.Add(1)
	}
	go c.deliver(id, f, f.addr, f.accepted, req)
}

// noticeDue returns the notice f is owed now, or nil; term is the newest
// term this member led in.
func (f *noticeState) noticeDue(term uint64) *raft.AppendEntriesRequest {
	commit := min(f.owed, f.ackIndex)
	if f.inFlight >= maxNoticesInFlight || f.stalled || f.term == 0 || f.term != term || commit <= max(f.told, f.sent) {
		return nil
	}
	return &raft.AppendEntriesRequest{
		RPCHeader: f.header,
		Term:      f.term,
		Leader:    f.leader, //nolint:staticcheck // as raft sets it
		// A request with a previous entry and a commit index never takes
		// the transport's heartbeat path: the follower's Raft loop checks
		// the entry and applies up to the commit index.
		PrevLogEntry:      f.ackIndex,
		PrevLogTerm:       f.ackTerm,
		LeaderCommitIndex: commit,
	}
}

// deliver sends one notice and, once it is answered, the next one due.
func (c *CommitNotices) deliver(id raft.ServerID, f *noticeState, addr raft.ServerAddress, accepted uint64, req *raft.AppendEntriesRequest) {
	var resp raft.AppendEntriesResponse
	err := c.send(id, addr, req, &resp)
	c.mu.Lock()
	defer c.mu.Unlock()
	f.inFlight--
	if f.inFlight == 0 {
		// Nothing sent is unanswered: a notice the follower refused or
		// never got may be owed again.
		f.sent = f.told
	}
	if err != nil || !resp.Success || resp.Term != req.Term || req.Term != f.term {
		// Tried again once the follower accepts a request from Raft
		// (at once if it did meanwhile); until then it learns the commit
		// index from Raft as before.
		if f.accepted == accepted {
			f.stalled = true
		} else {
			c.sendLocked(id, f)
		}
		return
	}
	if req.LeaderCommitIndex > f.told {
		f.told = req.LeaderCommitIndex
	}
	c.sendLocked(id, f)
}
