package cluster

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

type echoRequest struct {
	Text string
	IDs  []int64
}

type echoAnswer struct {
	Text string
	IDs  []int64
	By   string
}

// echoCalls registers "test.echo" on the members: it answers the request
// with the member that ran it, or fails for the text "fail". runs counts
// the runs per member.
func echoCalls(ms []*testMember) (calls map[string]*LeaderCall[echoRequest, echoAnswer], runs func(id string) int) {
	var mu sync.Mutex
	counted := map[string]int{}
	calls = map[string]*LeaderCall[echoRequest, echoAnswer]{}
	for _, m := range ms {
		id := m.id
		calls[id] = NewLeaderCall(m.node, "test.echo", func(_ context.Context, r echoRequest) (echoAnswer, error) {
			mu.Lock()
			counted[id]++
			mu.Unlock()
			if r.Text == "fail" {
				return echoAnswer{}, errors.New("refused: fail")
			}
			return echoAnswer{Text: r.Text, IDs: r.IDs, By: id}, nil
		})
	}
	return calls, func(id string) int {
		mu.Lock()
		defer mu.Unlock()
		return counted[id]
	}
}

// A registered call runs once, on the leader, whichever member makes it;
// the answer arrives intact, and an error the operation returns is final.
func TestLeaderCall_RunsOnTheLeaderFromAnyMember(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	calls, runs := echoCalls(tc.running())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i, m := range tc.running() {
		got, err := calls[m.id].Call(ctx, echoRequest{Text: m.id, IDs: []int64{1, -2}})
		if err != nil || got.By != leader.id || got.Text != m.id || len(got.IDs) != 2 || got.IDs[1] != -2 {
			t.Fatalf("call from %s = %+v, %v; want it answered by %s", m.id, got, err, leader.id)
		}
		if runs(leader.id) != i+1 {
			t.Fatalf("after %d calls the leader ran %d", i+1, runs(leader.id))
		}
	}
	before := runs(leader.id)
	for _, f := range tc.followers() {
		_, err := calls[f.id].Call(ctx, echoRequest{Text: "fail"})
		if err == nil || !strings.Contains(err.Error(), "refused: fail") || retryable(err) {
			t.Fatalf("failing call from %s = %v, want the operation's error, final", f.id, err)
		}
	}
	if got, want := runs(leader.id)-before, len(tc.followers()); got != want {
		t.Fatalf("failing calls ran %d times on the leader, want %d (no retry)", got, want)
	}
	for _, f := range tc.followers() {
		if runs(f.id) != 0 {
			t.Fatalf("follower %s ran a call", f.id)
		}
	}
}

// A call the leader does not serve fails at once, and never runs on the
// member that made it.
func TestLeaderCall_UnservedNameFailsAtOnce(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	tc.waitLeaderReady()
	follower := tc.followers()[0]
	calls, runs := echoCalls([]*testMember{follower})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := calls[follower.id].Call(ctx, echoRequest{Text: "x"})
	// Not retryable: the first answer ends the call, with no retry until
	// the hold or the caller's deadline.
	if err == nil || !strings.Contains(err.Error(), errCallNotServed.Error()) || retryable(err) || ctx.Err() != nil {
		t.Fatalf("unserved call = %v, want %v", err, errCallNotServed)
	}
	if n := runs(follower.id); n != 0 {
		t.Fatalf("unserved call ran %d times here", n)
	}
}
