package cluster

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// callerCalls registers "test.caller" on the members: it answers with the
// caller the run's context carries, as the leader would stamp it.
func callerCalls(ms []*testMember) map[string]*LeaderCall[echoRequest, Caller] {
	calls := map[string]*LeaderCall[echoRequest, Caller]{}
	for _, m := range ms {
		calls[m.id] = NewLeaderCall(m.node, "test.caller", func(ctx context.Context, _ echoRequest) (Caller, error) {
			return callerOf(ctx, CallerLeader), nil
		})
	}
	return calls
}

// A call a follower passes to the leader runs there with the caller the
// follower took it from and the follower as the member that took it; on
// the leader, with the caller as it is; without a caller, as the leader's
// own decision.
func TestLeaderCall_CarriesTheCallerToTheLeader(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	calls := callerCalls(tc.running())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ops := Caller{Who: "ops-account", From: "198.51.100.7:40123"}
	for _, m := range tc.running() {
		want := ops
		if m.id != leader.id {
			want.Via = m.id
		}
		if got, err := calls[m.id].Call(WithCaller(ctx, ops), echoRequest{}); err != nil || got != want {
			t.Fatalf("call from %s ran as %+v, %v; want %+v", m.id, got, err, want)
		}
		if got, err := calls[m.id].Call(ctx, echoRequest{}); err != nil || got != (Caller{Who: CallerLeader}) {
			t.Fatalf("call without a caller from %s ran as %+v, %v; want the leader's own", m.id, got, err)
		}
	}
	proxied := Caller{Who: "admin-token", From: "192.0.2.9:5000", Via: "n9"}
	if got, err := calls[tc.followers()[0].id].Call(WithCaller(ctx, proxied), echoRequest{}); err != nil || got != proxied {
		t.Fatalf("a call proxied to a follower ran as %+v, %v; want %+v", got, err, proxied)
	}
}

// The leader refuses, without running it, a call whose caller no audit
// stamp can carry, and runs one from a member that passes no caller (an
// older release) as its own decision.
func TestLeaderCall_RefusesACallerItCannotStamp(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	var mu sync.Mutex
	ran := 0
	NewLeaderCall(leader.node, "test.caller", func(ctx context.Context, _ echoRequest) (Caller, error) {
		mu.Lock()
		ran++
		mu.Unlock()
		return callerOf(ctx, CallerLeader), nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	long := strings.Repeat("x", 257)
	for _, c := range []*Caller{
		{Who: long, From: "a", Via: "n2"},
		{Who: "ops", From: long, Via: "n2"},
		{Who: "ops", From: "a", Via: long},
		{Who: "ops", From: "a"},
	} {
		var reply LeaderReply
		args := &LeaderCallArgs{Name: "test.caller", Request: []byte("{}"), Caller: c}
		if err := leader.node.pool.call(ctx, leader.addr, leaderCallMethod, args, &reply, true); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(reply.Err, errBadCaller.Error()) {
			t.Fatalf("caller %.40q: answer %+v, want it refused", c.Who+"/"+c.From+"/"+c.Via, reply)
		}
	}
	mu.Lock()
	if ran != 0 {
		t.Fatalf("refused calls ran %d times", ran)
	}
	mu.Unlock()
	var reply LeaderReply
	args := &LeaderCallArgs{Name: "test.caller", Request: []byte("{}")}
	if err := leader.node.pool.call(ctx, leader.addr, leaderCallMethod, args, &reply, true); err != nil || reply.Err != "" {
		t.Fatalf("a call without a caller: %+v, %v", reply, err)
	}
	var got Caller
	if err := json.Unmarshal(reply.Result, &got); err != nil || got != (Caller{Who: CallerLeader}) {
		t.Fatalf("a call without a caller ran as %+v (%v), want the leader's own", got, err)
	}
}

// The caller is a field the releases before it leave out: a leader of
// such a release decodes the call without it, and a call of such a member
// decodes with none.
func TestLeaderCallArgs_TheCallerIsOptionalOnTheWire(t *testing.T) {
	type olderArgs struct {
		Name    string
		Request []byte
	}
	var buf bytes.Buffer
	sent := LeaderCallArgs{Name: "controller.ElectMaster", Request: []byte(`{"BrokerName":"b"}`),
		Caller: &Caller{Who: "ops", From: "198.51.100.7:1", Via: "n2"}}
	if err := gob.NewEncoder(&buf).Encode(&sent); err != nil {
		t.Fatal(err)
	}
	var old olderArgs
	if err := gob.NewDecoder(&buf).Decode(&old); err != nil || old.Name != sent.Name || string(old.Request) != string(sent.Request) {
		t.Fatalf("an older leader decodes %+v, %v", old, err)
	}
	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode(&olderArgs{Name: "controller.ApplyBrokerID", Request: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	var got LeaderCallArgs
	if err := gob.NewDecoder(&buf).Decode(&got); err != nil || got.Caller != nil || got.Name != "controller.ApplyBrokerID" {
		t.Fatalf("a call of an older member decodes as %+v, %v", got, err)
	}
}
