package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// A min-broker-id notice is acknowledged by the leader only: a follower's
// ApplyLeaderOnly fails without sending anything, Apply refuses the command
// on every member, and on the leader exactly one ack clears the notice.
func TestApplyLeaderOnly_AckClearsOnceAndOnlyOnTheLeader(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	register(t, leader, registration("c1", "broker-a", "10.0.0.1:10911", 1, 1))
	register(t, leader, registration("c1", "broker-a", "10.0.0.2:10911", 0, 1))
	pending := leader.node.FSM().PendingMinBrokerIDNotices()
	if len(pending) != 1 {
		t.Fatalf("pending notices = %+v, want one after a smaller id registered", pending)
	}
	ack := &state.AckMinBrokerIDNotice{BrokerName: "broker-a", Index: pending[0].Index}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, m := range tc.running() {
		if _, err := m.node.Apply(ctx, fsm.AckMinBrokerIDNoticeType, ack); !errors.Is(err, ErrNotForwardable) {
			t.Fatalf("%s: Apply(ack) = %v, want ErrNotForwardable", m.id, err)
		}
	}
	for _, f := range tc.followers() {
		if _, err := f.node.ApplyLeaderOnly(ctx, fsm.AckMinBrokerIDNoticeType, ack); !errors.Is(err, ErrNotLeader) {
			t.Fatalf("%s: ApplyLeaderOnly on a follower = %v, want ErrNotLeader", f.id, err)
		}
	}
	if _, err := leader.node.ApplyLeaderOnly(ctx, fsm.PutKVType, &state.PutKV{Namespace: "n", Key: "k"}); err == nil {
		t.Fatal("ApplyLeaderOnly accepted a forwardable command")
	}
	for i, want := range []bool{true, false} {
		res, err := leader.node.ApplyLeaderOnly(ctx, fsm.AckMinBrokerIDNoticeType|fsm.IgnoreUnknownTypeFlag, ack)
		if r, ok := res.(state.AckResult); err != nil || !ok || r.Cleared != want {
			t.Fatalf("ack %d = %#v, %v; want Cleared %v", i+1, res, err, want)
		}
	}
	tc.waitSame()
	for _, m := range tc.running() {
		if n := m.node.FSM().PendingMinBrokerIDNotices(); len(n) != 0 {
			t.Fatalf("%s still holds %+v after the ack", m.id, n)
		}
	}
}
