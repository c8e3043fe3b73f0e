package cluster

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// putKV is the command that sets key to value in namespace "rw".
func putKV(key, value string) *state.PutKV {
	return &state.PutKV{Namespace: "rw", Key: key, Value: value, HasValue: true}
}

// A member that answers a write it took shows it in every read it serves
// after the answer: a leader call in its own state the moment it answers;
// a forwarded write or registration once the member's visibility floor is
// met (AwaitVisible), which every client read waits for.
func TestReadYourWrites_EveryMemberShowsWhatItAnswered(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	tc.waitLeaderReady()
	puts := map[string]*LeaderCall[string, string]{}
	for _, m := range tc.running() {
		node := m.node
		puts[m.id] = NewLeaderCall(node, "test.put", func(ctx context.Context, key string) (string, error) {
			_, err := node.proposer.apply(ctx, fsm.PutKVType, putKV(key, "by call"))
			return key, err
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const rounds = 100
	for _, m := range tc.running() {
		misses := 0
		for i := range rounds {
			key := fmt.Sprintf("%s-%d", m.id, i)
			if _, err := m.node.Apply(ctx, fsm.PutKVType, putKV(key, "v")); err != nil {
				t.Fatalf("put via %s: %v", m.id, err)
			}
			if err := m.node.AwaitVisible(ctx); err != nil {
				t.Fatalf("reads after the put via %s: %v", m.id, err)
			}
			if v, ok := m.node.FSM().KV("rw", key); !ok || v != "v" {
				misses++
			}
			reg := registration("RW", "b-"+key, "10.9.0.1:"+fmt.Sprint(1000+i), 0, 1)
			if _, err := m.node.Register(ctx, reg); err != nil {
				t.Fatalf("register via %s: %v", m.id, err)
			}
			if err := m.node.AwaitVisible(ctx); err != nil {
				t.Fatalf("reads after the registration via %s: %v", m.id, err)
			}
			if _, ok := m.node.FSM().Route("T-b-"+key, false); !ok {
				misses++
			}
			if _, err := puts[m.id].Call(ctx, "call-"+key); err != nil {
				t.Fatalf("leader call via %s: %v", m.id, err)
			}
			if v, _ := m.node.FSM().KV("rw", "call-"+key); v != "by call" {
				misses++
			}
		}
		if misses != 0 {
			t.Errorf("%s (leader: %v): %d of %d writes not visible on it when it answered", m.id, m.node.IsLeader(), misses, 3*rounds)
		}
	}
}

// A leader of a release before LeaderReply.Index names no index: the
// member falls back to the leader's read index, which covers everything
// the leader applied.
func TestCatchUp_WithoutAnIndexWaitsForTheLeadersReadIndex(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	f := tc.followers()[0]
	for i := range 20 {
		key := fmt.Sprintf("k%d", i)
		if _, err := leader.node.Apply(ctx, fsm.PutKVType, putKV(key, "v")); err != nil {
			t.Fatal(err)
		}
		if err := f.node.catchUp(ctx, 0); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.node.FSM().KV("rw", key); !ok {
			t.Fatalf("round %d: %s does not show what the leader applied before its read index", i, f.id)
		}
	}
}

// A member that has not applied the leader's index in time says so, and
// one that has returns at once.
func TestCatchUp_FailsWhenTheMemberStaysBehind(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	n := tc.waitLeaderReady().node
	if err := n.catchUp(context.Background(), n.FSM().AppliedIndex()); err != nil {
		t.Fatalf("catching up with what is applied: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := n.catchUp(ctx, n.FSM().AppliedIndex()+1000)
	if !errors.Is(err, ErrNotVisibleYet) {
		t.Fatalf("catching up with an index far ahead: %v, want ErrNotVisibleYet", err)
	}
}

// A write a follower forwarded raises its visibility floor to the write's
// entry, which the leader had applied when it answered; AwaitVisible then
// returns with the write shown. A write the leader took raises nothing.
func TestVisibility_ForwardedWriteRaisesTheFloor(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	f := tc.followers()[0]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	before := leader.node.Raft().LastIndex()
	if _, err := f.node.Apply(ctx, fsm.PutKVType, putKV("floor", "v")); err != nil {
		t.Fatal(err)
	}
	floor := f.node.visible.index.Load()
	if floor <= before || floor > leader.node.FSM().AppliedIndex() {
		t.Fatalf("floor %d after the write, want an entry after %d the leader applied (%d)", floor, before, leader.node.FSM().AppliedIndex())
	}
	if err := f.node.AwaitVisible(ctx); err != nil {
		t.Fatal(err)
	}
	if v, ok := f.node.FSM().KV("rw", "floor"); !f.node.Visible() || !ok || v != "v" {
		t.Fatalf("after AwaitVisible: visible %v, value %q %v", f.node.Visible(), v, ok)
	}
	if _, err := leader.node.Apply(ctx, fsm.PutKVType, putKV("on-leader", "v")); err != nil {
		t.Fatal(err)
	}
	if got := leader.node.visible.index.Load(); got != 0 {
		t.Fatalf("the leader's floor is %d after its own write, want none", got)
	}
}
