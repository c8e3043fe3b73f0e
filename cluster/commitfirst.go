package cluster

import "github.com/hashicorp/raft"

// commitFirst lets a follower apply what the leader says is committed
// before it stores the entries that came with the news.
//
// hashicorp/raft handles an AppendEntries on a follower in one step: it
// stores (and fsyncs) the new entries, then raises the commit index and
// applies. Under a steady stream of writes the commit index a request
// carries is mostly about entries the follower stored already, so their
// apply waits one fsync of entries that have nothing to do with them; a
// member waiting to answer a write it forwarded (catchUp) waits with it.
// When a request with entries follows on from the last one passed to Raft
// and names a commit index this member was not told yet, commitFirst hands
// Raft an AppendEntries without entries first: the same leader, term and
// previous entry, with the commit index cut at that previous entry. Raft
// checks it as it checks any request (the previous entry's term must match
// its log, so what it applies is what the leader committed) and applies
// at once; the real request follows, unchanged, and its answer is the one
// the leader gets.
type commitFirst struct {
	// lastPassed is the last entry of the last request with entries
	// passed to Raft; told the highest commit index Raft was handed.
	lastPassed, told uint64
}

// before returns the request to hand Raft ahead of rpc, if any, and notes
// what rpc tells Raft. Requests other than AppendEntries pass unnoticed.
func (c *commitFirst) before(rpc raft.RPC) (raft.RPC, bool) {
	req, ok := rpc.Command.(*raft.AppendEntriesRequest)
	if !ok {
		return raft.RPC{}, false
	}
	var pre raft.RPC
	commit := min(req.LeaderCommitIndex, req.PrevLogEntry)
	first := len(req.Entries) > 0 && req.PrevLogEntry > 0 && req.PrevLogEntry == c.lastPassed && commit > c.told
	if first {
		pre = raft.RPC{
			Command: &raft.AppendEntriesRequest{
				RPCHeader:         req.RPCHeader,
				Term:              req.Term,
				PrevLogEntry:      req.PrevLogEntry,
				PrevLogTerm:       req.PrevLogTerm,
				LeaderCommitIndex: commit,
			},
			// Raft answers it; nobody waits for the answer.
			RespChan: make(chan raft.RPCResponse, 1),
		}
	}
	if n := len(req.Entries); n > 0 {
		c.lastPassed = req.Entries[n-1].Index
		c.told = max(c.told, min(req.LeaderCommitIndex, c.lastPassed))
	} else {
		c.told = max(c.told, commit)
	}
	return pre, first
}
