package cluster

import (
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/poll"
)

func appendReq(prev, prevTerm, commit uint64, entries ...uint64) *raft.AppendEntriesRequest {
	req := &raft.AppendEntriesRequest{Term: 1, PrevLogEntry: prev, PrevLogTerm: prevTerm, LeaderCommitIndex: commit}
	for _, i := range entries {
		req.Entries = append(req.Entries, &raft.Log{Index: i, Term: 1, Type: raft.LogCommand})
	}
	return req
}

func TestCommitFirst_HandsTheCommitIndexAheadOnlyWhereItHelps(t *testing.T) {
	var c commitFirst
	steps := []struct {
		name string
		req  raft.WithRPCHeader
		want uint64 // commit index of the request handed first; 0: none
	}{
		{"first entries, nothing committed", appendReq(0, 0, 0, 1, 2, 3), 0},
		{"more entries, the earlier ones committed", appendReq(3, 1, 3, 4, 5), 3},
		{"commit beyond the previous entry is cut at it", appendReq(5, 1, 9, 6), 5},
		{"nothing new to tell", appendReq(6, 1, 5, 7), 0},
		{"a heartbeat", &raft.AppendEntriesRequest{Term: 1}, 0},
		{"a request that does not follow on", appendReq(9, 1, 8, 10), 0},
		{"a notice without entries tells", appendReq(10, 1, 10), 0},
		{"so the next request has nothing to add", appendReq(10, 1, 10, 11), 0},
		{"a vote request", &raft.RequestVoteRequest{Term: 2}, 0},
	}
	for _, s := range steps {
		pre, ok := c.before(raft.RPC{Command: s.req})
		if ok != (s.want != 0) {
			t.Fatalf("%s: handed a request first: %v, want %v", s.name, ok, s.want != 0)
		}
		if !ok {
			continue
		}
		got := pre.Command.(*raft.AppendEntriesRequest)
		real := s.req.(*raft.AppendEntriesRequest)
		if len(got.Entries) != 0 || got.LeaderCommitIndex != s.want || got.PrevLogEntry != real.PrevLogEntry ||
			got.PrevLogTerm != real.PrevLogTerm || got.Term != real.Term {
			t.Fatalf("%s: handed %+v first", s.name, got)
		}
	}
}

// blockingLogs is a log store whose StoreLogs waits while a batch holds
// the entry blockAt, until released.
type blockingLogs struct {
	raft.LogStore
	blockAt uint64
	blocked atomic.Bool
	release chan struct{}
}

func (b *blockingLogs) StoreLogs(logs []*raft.Log) error {
	for _, l := range logs {
		if l.Index == b.blockAt {
			b.blocked.Store(true)
			<-b.release
		}
	}
	return b.LogStore.StoreLogs(logs)
}

// countingFSM counts the commands it applied.
type countingFSM struct {
	mu      sync.Mutex
	applied uint64
}

func (f *countingFSM) Apply(l *raft.Log) any {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = l.Index
	return nil
}

func (f *countingFSM) last() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.applied
}

func (f *countingFSM) Snapshot() (raft.FSMSnapshot, error) { return nil, io.EOF }
func (f *countingFSM) Restore(io.ReadCloser) error         { return io.EOF }

// A follower under the guard applies the entries a request says are
// committed while the entries that request brings are still being stored.
func TestCommitFirst_AFollowerAppliesBeforeItStoresTheNextEntries(t *testing.T) {
	_, followerTrans := raft.NewInmemTransport("follower")
	_, leaderTrans := raft.NewInmemTransport("leader")
	leaderTrans.Connect("follower", followerTrans)
	stop := make(chan struct{})
	guarded, guard := guardVotes(followerTrans, func() bool { return true }, stop)
	go guard.run()

	logs := &blockingLogs{LogStore: raft.NewInmemStore(), blockAt: 4, release: make(chan struct{})}
	fsm := &countingFSM{}
	conf := raft.DefaultConfig()
	conf.LocalID = "follower"
	conf.Logger = hclog.NewNullLogger()
	r, err := raft.NewRaft(conf, fsm, logs, raft.NewInmemStore(), raft.NewInmemSnapshotStore(), guarded)
	if err != nil {
		t.Fatal(err)
	}
	released := false
	t.Cleanup(func() {
		if !released {
			close(logs.release)
		}
		r.Shutdown().Error()
		close(stop)
	})

	send := func(req *raft.AppendEntriesRequest) *raft.AppendEntriesResponse {
		t.Helper()
		req.RPCHeader = raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte("leader"), Addr: []byte("leader")}
		var resp raft.AppendEntriesResponse
		if err := leaderTrans.AppendEntries("follower", "follower", req, &resp); err != nil {
			t.Fatal(err)
		}
		return &resp
	}
	if resp := send(appendReq(0, 0, 0, 1, 2, 3)); !resp.Success {
		t.Fatalf("first entries refused: %+v", resp)
	}
	answered := make(chan *raft.AppendEntriesResponse, 1)
	go func() {
		var resp raft.AppendEntriesResponse
		req := appendReq(3, 1, 3, 4, 5)
		req.RPCHeader = raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte("leader"), Addr: []byte("leader")}
		if err := leaderTrans.AppendEntries("follower", "follower", req, &resp); err != nil {
			resp.Success = false
		}
		answered <- &resp
	}()
	poll.For(t, 10*time.Second, "the store of entries 4-5 to start", logs.blocked.Load)
	poll.For(t, 10*time.Second, "entries 1-3 applied while 4-5 are being stored", func() bool { return fsm.last() == 3 })
	close(logs.release)
	released = true
	if resp := <-answered; !resp.Success {
		t.Fatalf("the request with entries 4-5 was answered %+v", resp)
	}
	if last := r.LastIndex(); last != 5 {
		t.Fatalf("the follower's log ends at %d, want 5", last)
	}
}
