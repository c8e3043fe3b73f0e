package controller

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm/state"
)

// A controller request a follower takes is decided on the leader, and the
// audit trail of every member names the request's caller, its address and
// the follower, not the leader; one the leader takes names the leader.
func TestController_AuditNamesTheCallerOfARequestAFollowerTook(t *testing.T) {
	tc, _ := controllerCluster(t)
	leader, follower := tc.Leader(), tc.Followers()[0]
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ops := cluster.Caller{Who: "ops-account", From: "198.51.100.7:40123"}
	after := leader.FSM().LastAuditIndex()

	if err := tc.ctl[follower.ID()].ApplyBrokerID(cluster.WithCaller(ctx, ops),
		ApplyBrokerID{ClusterName: "c", BrokerName: "b", BrokerID: 3, Addr: "10.0.0.3:10911", CheckCode: "3"}); err != nil {
		t.Fatal(err)
	}
	for _, n := range tc.Running() {
		heartbeatSlave(n)
	}
	elected, err := tc.ctl[follower.ID()].ElectMaster(cluster.WithCaller(ctx, ops),
		ElectRequest{BrokerName: "b", HasBrokerID: true, BrokerID: 2, Designate: true})
	if err != nil || elected.Group.MasterID != 2 {
		t.Fatalf("designated election through %s: %+v, %v", follower.ID(), elected, err)
	}
	if err := tc.ctl[leader.ID()].ApplyBrokerID(cluster.WithCaller(ctx, ops),
		ApplyBrokerID{ClusterName: "c", BrokerName: "b", BrokerID: 4, Addr: "10.0.0.4:10911", CheckCode: "4"}); err != nil {
		t.Fatal(err)
	}

	want := []struct{ kind, via string }{
		{state.AuditBrokerID, follower.ID()}, {state.AuditMasterElection, follower.ID()}, {state.AuditBrokerID, leader.ID()},
	}
	tc.WaitApplied(leader.FSM().AppliedIndex())
	var first []state.AuditRecord
	for _, n := range tc.Running() {
		recs := n.FSM().AuditRecords(state.AuditQuery{After: after}).Records
		if len(recs) != len(want) {
			t.Fatalf("%s: records %+v, want %d", n.ID(), recs, len(want))
		}
		for i, w := range want {
			r := recs[i]
			if r.Kind != w.kind || r.Who != ops.Who || r.From != ops.From || r.Via != w.via || r.Outcome != state.OutcomeApplied {
				t.Fatalf("%s record %d: %+v, want %s by %s from %s via %s, applied", n.ID(), i, r, w.kind, ops.Who, ops.From, w.via)
			}
		}
		if first == nil {
			first = recs
		} else if !reflect.DeepEqual(recs, first) {
			t.Fatalf("%s holds\n%+v\nanother member\n%+v", n.ID(), recs, first)
		}
	}
}
