package cluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/internal/poll"
)

// A lone writer through a follower appends one log entry per write, with
// Raft's commit timeout far beyond the test's life: the follower learns
// each write is committed from the leader's commit notice, and its own
// read right after the answer sees the write.
func TestCommitNotice_LoneWriterThroughAFollowerAppendsOneEntryPerWrite(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) {
		rc := *c.RaftConfig
		rc.CommitTimeout = time.Hour
		c.RaftConfig = &rc
	})
	leader := tc.waitLeaderReady()
	// What the new leader writes on taking office is applied first.
	poll.For(t, 10*time.Second, "the leader applying its log", func() bool {
		r := leader.node.Raft()
		return r.AppliedIndex() == r.LastIndex()
	})
	f := tc.followers()[0]
	before := leader.node.Raft().LastIndex()
	noticesBefore := leader.node.Stats().CommitNotices.Load()
	const writes = 20
	for i := range writes {
		key := fmt.Sprint("lone-", i)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := f.node.Apply(ctx, fsm.PutKVType, putKV(key, "v"))
		if err == nil {
			// With CommitTimeout an hour, only a notice lets it catch up.
			err = f.node.AwaitVisible(ctx)
		}
		cancel()
		if err != nil {
			t.Fatalf("write %d through %s: %v", i, f.id, err)
		}
		if v, ok := f.node.FSM().KV("rw", key); !ok || v != "v" {
			t.Fatalf("write %d: %s answered it but reads %q, %v", i, f.id, v, ok)
		}
	}
	// The leader's own duties (member addresses, the formed version) may
	// write meanwhile: only entries of the writer's command count, and no
	// other kind of entry (a barrier) may appear.
	puts := 0
	for i := before + 1; i <= leader.node.Raft().LastIndex(); i++ {
		var l raft.Log
		if err := leader.node.stores.logs.GetLog(i, &l); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if l.Type != raft.LogCommand {
			t.Fatalf("entry %d is a %v: writes through a follower appended more than their commands", i, l.Type)
		}
		if p, err := fsm.DecodeProposal(l.Data); err == nil && p.Type() == fsm.PutKVType {
			puts++
		}
	}
	if puts != writes {
		t.Fatalf("%d writes through a follower appended %d of their commands, want %d", writes, puts, writes)
	}
	if n := leader.node.Stats().CommitNotices.Load() - noticesBefore; n == 0 {
		t.Fatalf("the leader sent no commit notice")
	}
}
