package cluster

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// trails returns every running member's whole audit trail.
func trails(tc *testCluster) map[string][]state.AuditRecord {
	out := map[string][]state.AuditRecord{}
	for _, m := range tc.running() {
		out[m.id] = m.node.FSM().AuditRecords(state.AuditQuery{}).Records
	}
	return out
}

// sameTrail waits until every running member holds want records and the
// same ones, and returns them.
func sameTrail(t *testing.T, tc *testCluster, want int) []state.AuditRecord {
	t.Helper()
	var got []state.AuditRecord
	poll.For(t, 10*time.Second, "the same audit trail on every member", func() bool {
		all := trails(tc)
		got = nil
		for _, recs := range all {
			if got == nil {
				got = recs
			}
			if len(recs) != want || !reflect.DeepEqual(recs, got) {
				return false
			}
		}
		return true
	})
	return got
}

func TestCluster_AuditTrailIsTheSameOnEveryMemberAfterALeaderKillAndARestart(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	follower := tc.followers()[0]
	// Before the cluster version allows the trail nothing is recorded.
	if _, err := follower.node.Apply(ctx, fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "v", HasValue: true}); err != nil {
		t.Fatal(err)
	}
	allowDrains(t, tc)
	leader := tc.waitLeaderReady()
	follower = tc.followers()[0]
	register(t, follower, registration("C", "b1", "10.0.0.1:10911", 0, 1))
	caller := WithCaller(ctx, Caller{Who: "ops-key", From: "192.0.2.7:40000"})
	if _, err := follower.node.Apply(caller, fsm.WipeWritePermType, &state.WipeWritePerm{BrokerName: "b1"}); err != nil {
		t.Fatal(err)
	}
	if err := follower.node.RecordAudit(caller, state.AuditRecord{Kind: state.AuditLeaderTransfer, Detail: "from=n1 to=n2"}); err != nil {
		t.Fatal(err)
	}
	// The broker stops heartbeating: the leader expires it and says so.
	recs := sameTrail(t, tc, 3)
	wipe, transfer, expiry := recs[0], recs[1], recs[2]
	if wipe.Kind != state.AuditWipeWritePerm || wipe.Who != "ops-key" || wipe.From != "192.0.2.7:40000" ||
		wipe.Via != follower.id || wipe.Broker != "b1" || wipe.Outcome != state.OutcomeApplied {
		t.Fatalf("wipe record = %+v", wipe)
	}
	if transfer.Kind != state.AuditLeaderTransfer || transfer.Who != "ops-key" {
		t.Fatalf("transfer record = %+v", transfer)
	}
	// Via is the leader that decided, which a loaded machine may have
	// changed since.
	if expiry.Kind != state.AuditBrokerExpiry || expiry.Who != CallerLeader || tc.members[expiry.Via] == nil ||
		expiry.Broker != "b1" || !strings.Contains(expiry.Detail, "reason=") {
		t.Fatalf("expiry record = %+v", expiry)
	}
	for _, m := range tc.running() {
		if n := m.node.AuditCounts()[state.AuditBrokerExpiry]; n != 1 {
			t.Fatalf("expiry counter on %s = %d", m.id, n)
		}
	}
	leader = tc.waitLeaderReady()

	// The leader dies; the others keep the trail and add to it.
	tc.stop(leader)
	next := tc.waitLeaderReady()
	if _, err := next.node.Apply(caller, fsm.DeleteTopicType, &state.DeleteTopic{Topic: "T-b1"}); err != nil {
		t.Fatal(err)
	}
	sameTrail(t, tc, 4)
	// A member restarted from its snapshot holds the same trail.
	if err := next.node.Raft().Snapshot().Error(); err != nil {
		t.Fatal(err)
	}
	tc.stop(next)
	tc.start(next, nil)
	tc.start(leader, nil)
	got := sameTrail(t, tc, 4)
	if !reflect.DeepEqual(got[:3], recs) {
		t.Fatalf("trail after the restarts = %+v, want it to begin with %+v", got, recs)
	}
}

func TestCluster_AMemberWithTheTrailOffStampsNothing(t *testing.T) {
	tc := newTestCluster(t, 1, func(c *Config) { c.Audit.Off = true })
	allowDrains(t, tc)
	m := tc.waitLeaderReady()
	if _, err := m.node.Apply(context.Background(), fsm.DeleteTopicType, &state.DeleteTopic{Topic: "T"}); err != nil {
		t.Fatal(err)
	}
	if err := m.node.RecordAudit(context.Background(), state.AuditRecord{Kind: state.AuditConfigUpdate}); err != nil {
		t.Fatal(err)
	}
	if p := m.node.FSM().AuditRecords(state.AuditQuery{}); p.Total != 0 {
		t.Fatalf("records = %+v", p)
	}
}
