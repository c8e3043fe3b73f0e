package transport

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/raft"
)

// sentNotice is one notice CommitNotices sent, answered by writing to
// answer.
type sentNotice struct {
	id     raft.ServerID
	target raft.ServerAddress
	req    *raft.AppendEntriesRequest
	answer chan raft.AppendEntriesResponse
}

func newTestNotices() (*CommitNotices, chan sentNotice, *atomic.Uint64) {
	sent := make(chan sentNotice, 10)
	var count atomic.Uint64
	c := NewCommitNotices(func(id raft.ServerID, target raft.ServerAddress, req *raft.AppendEntriesRequest, resp *raft.AppendEntriesResponse) error {
		n := sentNotice{id, target, req, make(chan raft.AppendEntriesResponse)}
		sent <- n
		r, ok := <-n.answer
		if !ok {
			return errors.New("connection lost")
		}
		*resp = r
		return nil
	}, &count)
	return c, sent, &count
}

// replicated is the request Raft sends in term 5 with entries after
// prev, and the answer it takes.
func replicated(prev, prevTerm, commit uint64, entries ...uint64) (*raft.AppendEntriesRequest, *raft.AppendEntriesResponse) {
	req := &raft.AppendEntriesRequest{RPCHeader: raft.RPCHeader{ID: []byte("leader"), Addr: []byte("leader:1")},
		Term: 5, PrevLogEntry: prev, PrevLogTerm: prevTerm, LeaderCommitIndex: commit}
	for _, i := range entries {
		req.Entries = append(req.Entries, &raft.Log{Index: i, Term: 5})
	}
	return req, &raft.AppendEntriesResponse{Term: 5, Success: true}
}

func expectNotice(t *testing.T, sent chan sentNotice) sentNotice {
	t.Helper()
	select {
	case n := <-sent:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no notice sent")
		return sentNotice{}
	}
}

// expectNone checks that no notice beyond the count-th was sent (a
// notice is counted before it goes).
func expectNone(t *testing.T, sent chan sentNotice, count *atomic.Uint64, want uint64, what string) {
	t.Helper()
	if n := count.Load(); n != want {
		t.Fatalf("%s: %d notices sent, want %d", what, n, want)
	}
	select {
	case n := <-sent:
		t.Fatalf("%s: a notice was sent: %+v", what, n.req)
	default:
	}
}

// The notice carries no entries, the follower's acknowledged entry as
// its previous entry, the leader's header and term, and the lesser of
// the committed index and the acknowledged one.
func TestCommitNotices_NoticeFields(t *testing.T) {
	c, sent, count := newTestNotices()
	req, resp := replicated(3, 4, 3, 4, 5, 6)
	c.Observe("f1", "f1:1", req, resp, nil)
	expectNone(t, sent, count, 0, "nothing committed owed")

	c.Committed(9) // beyond what f1 holds: told up to 6 now
	n := expectNotice(t, sent)
	if n.id != "f1" || n.target != "f1:1" {
		t.Fatalf("notice to %s at %s", n.id, n.target)
	}
	r := n.req
	if len(r.Entries) != 0 || r.PrevLogEntry != 6 || r.PrevLogTerm != 5 || r.LeaderCommitIndex != 6 || r.Term != 5 ||
		string(r.Addr) != "leader:1" || string(r.ID) != "leader" {
		t.Fatalf("notice %+v", r)
	}
	n.answer <- raft.AppendEntriesResponse{Term: 5, Success: true}
	expectNone(t, sent, count, 1, "owed index not acknowledged yet")

	// The follower acknowledges 9 with an AppendEntries built before 9
	// was committed: the rest of the notice goes now.
	req, resp = replicated(6, 5, 6, 7, 8, 9)
	c.Observe("f1", "f1:1", req, resp, nil)
	n = expectNotice(t, sent)
	if n.req.PrevLogEntry != 9 || n.req.LeaderCommitIndex != 9 {
		t.Fatalf("second notice %+v", n.req)
	}
	n.answer <- raft.AppendEntriesResponse{Term: 5, Success: true}
	if count.Load() != 2 {
		t.Fatalf("%d notices counted, want 2", count.Load())
	}
}

// Up to maxNoticesInFlight notices in flight per follower, each with a
// higher index than the last; what is owed beyond that goes in the next
// one, and nothing goes to a follower a request already told.
func TestCommitNotices_Coalesce(t *testing.T) {
	c, sent, count := newTestNotices()
	req, resp := replicated(0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	c.Observe("f1", "f1:1", req, resp, nil)
	var inFlight []sentNotice
	for i := range maxNoticesInFlight {
		c.Committed(uint64(2 + i))
		n := expectNotice(t, sent)
		if n.req.LeaderCommitIndex != uint64(2+i) {
			t.Fatalf("notice %d commits %d, want %d", i, n.req.LeaderCommitIndex, 2+i)
		}
		inFlight = append(inFlight, n)
	}
	c.Committed(uint64(1 + maxNoticesInFlight)) // sent already
	c.Committed(8)
	c.Committed(9)
	expectNone(t, sent, count, maxNoticesInFlight, "as many notices in flight as allowed")
	inFlight[0].answer <- raft.AppendEntriesResponse{Term: 5, Success: true}
	next := expectNotice(t, sent)
	if next.req.LeaderCommitIndex != 9 {
		t.Fatalf("next notice commits %d, want 9", next.req.LeaderCommitIndex)
	}
	for _, n := range append(inFlight[1:], next) {
		n.answer <- raft.AppendEntriesResponse{Term: 5, Success: true}
	}
	c.Committed(9)
	expectNone(t, sent, count, maxNoticesInFlight+1, "the follower was told 9")

	// A request from Raft that told the follower 10 makes a notice of 10
	// needless.
	req, resp = replicated(10, 5, 10)
	c.Observe("f1", "f1:1", req, resp, nil)
	c.Committed(10)
	expectNone(t, sent, count, maxNoticesInFlight+1, "the follower already told")
}

// A notice goes in the term of the acknowledgement; a follower that
// refuses it (it saw a newer term) is not marked as told nor sent another
// before it accepts a request from Raft, and a new term forgets what was
// acknowledged before it.
func TestCommitNotices_StaleTerm(t *testing.T) {
	c, sent, count := newTestNotices()
	req, resp := replicated(0, 0, 0, 1, 2, 3)
	c.Observe("f1", "f1:1", req, resp, nil)
	c.Committed(3)
	n := expectNotice(t, sent)
	n.answer <- raft.AppendEntriesResponse{Term: 6, Success: false}
	expectNone(t, sent, count, 1, "refused in a newer term")
	// Nor is it tried again at every commit until the follower accepts a
	// request from Raft.
	c.Committed(3)
	expectNone(t, sent, count, 1, "a follower that refused the last notice")

	// A refused or failed answer from Raft's own request teaches nothing.
	req, resp = replicated(3, 5, 0, 4)
	resp.Success = false
	c.Observe("f1", "f1:1", req, resp, nil)
	c.Observe("f1", "f1:1", req, &raft.AppendEntriesResponse{Term: 5, Success: true}, errors.New("timeout"))
	expectNone(t, sent, count, 1, "nothing acknowledged")

	// Leading again in term 7: only what is acknowledged in term 7 counts,
	// also for a follower last heard from in term 5 (f2), whose match with
	// this member's log of term 5 proves nothing now.
	req, resp = replicated(0, 0, 0, 1, 2, 3)
	c.Observe("f2", "f2:1", req, resp, nil)
	c.Committed(3)
	n = expectNotice(t, sent) // term 5 is still the newest: f2 is owed 3
	if n.id != "f2" {
		t.Fatalf("notice to %s, want f2", n.id)
	}
	n.answer <- raft.AppendEntriesResponse{Term: 5, Success: false}
	req = &raft.AppendEntriesRequest{Term: 7}
	c.Observe("f1", "f1:1", req, &raft.AppendEntriesResponse{Term: 7, Success: true}, nil)
	req, resp = replicated(0, 0, 0, 1, 2, 3) // f2 accepts in term 5 again
	c.Observe("f2", "f2:1", req, resp, nil)
	c.Committed(3)
	expectNone(t, sent, count, 2, "nothing acknowledged in the new term")
	req = &raft.AppendEntriesRequest{Term: 7, PrevLogEntry: 3, PrevLogTerm: 5,
		Entries: []*raft.Log{{Index: 4, Term: 7}}}
	c.Observe("f1", "f1:1", req, &raft.AppendEntriesResponse{Term: 7, Success: true}, nil)
	n = expectNotice(t, sent)
	if n.req.Term != 7 || n.req.PrevLogEntry != 4 || n.req.PrevLogTerm != 7 || n.req.LeaderCommitIndex != 3 {
		t.Fatalf("notice in the new term %+v", n.req)
	}
	close(n.answer)
}
