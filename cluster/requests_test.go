package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/transport/lane"
)

// A copy of a forwarded write that reaches the leader late (a retry after
// a lost answer, a request stuck in a paused leader's socket) must neither
// apply twice nor overwrite a newer acknowledged write of the same member.
func TestForward_LateCopyCannotOverwriteANewerWrite(t *testing.T) {
	// LAN-like timers: the raw RPCs below go to one leader, which must not
	// lose office on a loaded machine.
	tc := newTestCluster(t, 3, func(c *Config) {
		c.RaftConfig.HeartbeatTimeout, c.RaftConfig.ElectionTimeout, c.RaftConfig.LeaderLeaseTimeout = time.Second, time.Second, 500*time.Millisecond
	})
	leader := tc.waitLeaderReady()
	follower := tc.followers()[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	put := func(v string) *state.PutKV { return &state.PutKV{Namespace: "ns", Key: "k", Value: v, HasValue: true} }

	// The follower takes write A and forwards it; the leader applies it.
	idA, bufA, err := follower.node.requests.identify(mustEncode(t, fsm.PutKVType, put("A")))
	if err != nil {
		t.Fatal(err)
	}
	client := rawRPCClient(t, leader.addr, nil)
	forward := func() LeaderReply {
		var reply LeaderReply
		if err := client.Call("Cluster.Forward", &ForwardArgs{From: follower.id, Command: bufA}, &reply); err != nil {
			t.Fatal(err)
		}
		return reply
	}
	if r := forward(); r.ErrKind != lane.KindNone {
		t.Fatalf("first copy of A: %+v", r)
	}
	// A retry while A is still awaited is a duplicate: answered, not
	// applied again.
	if r := forward(); r.ErrKind != lane.KindNone {
		t.Fatalf("retry of A while awaited: %+v", r)
	}
	follower.node.requests.done(idA) // the follower answered A

	// The client's next write B is acknowledged.
	if _, err := follower.node.Apply(ctx, fsm.PutKVType, put("B")); err != nil {
		t.Fatal(err)
	}
	// A late copy of A arrives: refused, and B stays.
	r := forward()
	if r.ErrKind == lane.KindNone || !strings.Contains(r.Err, "superseded") {
		t.Fatalf("late copy of A: %+v, want a refusal as superseded", r)
	}
	tc.waitSame()
	for _, m := range tc.running() {
		if v, _ := m.node.FSM().KV("ns", "k"); v != "B" {
			t.Fatalf("%s: k = %q, want the newer acknowledged B", m.id, v)
		}
	}
}

// A write refused before it left the member says nothing was applied.
func TestApply_WithoutLeaderSaysNothingWasApplied(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) { c.ForwardHold = 300 * time.Millisecond })
	tc.waitLeaderReady()
	follower := tc.followers()[0]
	tc.partition(follower)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// Wait until the follower no longer knows a leader it can reach.
	var err error
	for ctx.Err() == nil {
		_, err = follower.node.Apply(ctx, fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "v", HasValue: true})
		if err != nil {
			break
		}
	}
	if !errors.Is(err, ErrNoLeader) || errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("Apply on a cut-off follower = %v, want ErrNoLeader (nothing applied)", err)
	}
	if follower.node.Stats().WritesNotApplied.Load() == 0 {
		t.Fatal("ns_writes_failed_total{outcome=not_applied} not counted")
	}
}

// The floor a request carries is the oldest request of the member still
// waiting for its answer (itself when none is older), whatever order the
// answers come in: checked against a scan of every waiting request.
func TestRequestTracker_FloorIsOldestWaiting(t *testing.T) {
	r := newRequestTracker("m1")
	rng := rand.New(rand.NewPCG(7, 13))
	waiting := map[uint64]state.RequestID{}
	for step := 0; step < 5000; step++ {
		if len(waiting) == 0 || rng.IntN(3) != 0 {
			id := r.begin()
			want := id.Seq
			for seq := range waiting {
				want = min(want, seq)
			}
			if id.Floor != want {
				t.Fatalf("step %d: request %d has floor %d, want %d (waiting %d)", step, id.Seq, id.Floor, want, len(waiting))
			}
			waiting[id.Seq] = id
			continue
		}
		// Answer a random waiting request (map order is random enough
		// only with the rng choosing how far to go).
		skip := rng.IntN(len(waiting))
		for seq, id := range waiting {
			if skip == 0 {
				r.done(id)
				r.done(id) // a second done changes nothing
				delete(waiting, seq)
				break
			}
			skip--
		}
	}
}

// mustEncode encodes a command or fails the test.
func mustEncode(t testing.TB, typ fsm.CommandType, cmd any) []byte {
	t.Helper()
	buf, err := fsm.Encode(typ, cmd)
	if err != nil {
		t.Fatal(err)
	}
	return buf
}
