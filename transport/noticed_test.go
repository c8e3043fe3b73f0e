package transport

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/raft"
)

// Answers that come back through a replication pipeline reach the
// notices, and the notice goes to the follower through the inner
// transport.
func TestNoticed_PipelinedAnswersReachTheNotices(t *testing.T) {
	_, leader := raft.NewInmemTransport("leader")
	_, follower := raft.NewInmemTransport("follower")
	leader.Connect("follower", follower)
	defer leader.Close()
	defer follower.Close()
	got := make(chan *raft.AppendEntriesRequest, 4)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case rpc := <-follower.Consumer():
				req := rpc.Command.(*raft.AppendEntriesRequest)
				got <- req
				rpc.Respond(&raft.AppendEntriesResponse{Term: req.Term, Success: true}, nil)
			case <-stop:
				return
			}
		}
	}()
	var sent, notices atomic.Uint64
	n := NewNoticed(leader, &sent, &notices)
	if _, ok := n.ForRaft().(raft.WithPreVote); !ok {
		t.Fatal("the inmem transport sends pre-votes, the wrapper given to Raft does not")
	}
	p, err := n.AppendEntriesPipeline("f", "follower")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	req, _ := replicated(0, 0, 0, 1, 2)
	if _, err := p.AppendEntries(req, &raft.AppendEntriesResponse{}); err != nil {
		t.Fatal(err)
	}
	<-got
	select {
	case <-p.Consumer():
	case <-time.After(10 * time.Second):
		t.Fatal("no answer through the pipeline")
	}
	n.Notices.Committed(2)
	select {
	case r := <-got:
		if len(r.Entries) != 0 || r.PrevLogEntry != 2 || r.PrevLogTerm != 5 || r.LeaderCommitIndex != 2 {
			t.Fatalf("notice %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notice reached the follower")
	}
	if sent.Load() != 2 || notices.Load() != 1 {
		t.Fatalf("sent %d AppendEntries and %d notices, want 2 and 1", sent.Load(), notices.Load())
	}
}
