package cluster

import "github.com/raftns/raftns/transport"

// commitNotice makes the leader tell its followers the commit index soon
// after it answered a change it ran for one of them.
//
// A member that forwarded a write waits, before it answers, until it has
// applied the write itself (catchUp). A follower applies what it knows to
// be committed, and hashicorp/raft tells it the commit index only in
// AppendEntries that carry entries, or in an empty one after CommitTimeout
// (50–100 ms) without any: its heartbeats carry none. So once the leader
// answers a change, every follower is sent the index the answer names as
// committed: an AppendEntries without entries that Raft on the follower
// checks and applies like any other (transport.CommitNotices). No log entry
// is written and nothing is fsynced; a follower that a request accepted
// since already told is sent nothing, and notices owed while one is in
// flight go in the next.
type commitNotice struct{ notices *transport.CommitNotices }

// answered records a change answered for another member whose effects
// are all at or below index, which this member applied as the leader.
func (c commitNotice) answered(index uint64) {
	if c.notices != nil && index > 0 {
		c.notices.Committed(index)
	}
}
