package controller

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/fsm/state"
)

// Every member gets the leader's answer, whichever it asks: a follower's
// typed answer equals the leader's, and a refusal comes back as the same
// *state.Refused.
func TestController_FollowersGetTheLeadersAnswers(t *testing.T) {
	tc, _ := controllerCluster(t)
	leader := tc.Leader()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, n := range tc.Running() {
		n.Replicas().HeardReplica(cluster.ControllerHeartbeat{Key: cluster.ReplicaKey{Cluster: "c", BrokerName: "b", ID: 1}, Addr: ctlMaster.Addr})
	}
	ask := func(c *Controller) []any {
		reg, regErr := c.RegisterBroker(ctx, RegisterBroker{ClusterName: "c", BrokerName: "b", BrokerID: 2, Addr: ctlSlave.Addr})
		info, infoErr := c.ReplicaInfo(ctx, GetReplicaInfo{BrokerName: "b"})
		states, statesErr := c.SyncStateData(ctx, GetSyncStateData{BrokerNames: []string{"b", "nope", "b"}})
		next, nextErr := c.NextBrokerID(ctx, NextBrokerID{ClusterName: "c", BrokerName: "b"})
		elected, electErr := c.ElectMaster(ctx, ElectRequest{BrokerName: "b", HasBrokerID: true, BrokerID: 2})
		return []any{reg, regErr, info, infoErr, states, statesErr, next, nextErr, elected, electErr}
	}
	want := ask(tc.ctl[leader.ID()])
	if want[0].(Registered).Group.BrokerName != "b" || !want[0].(Registered).MasterAlive || want[6].(int64) != 3 ||
		!want[8].(Elected).MasterStillAlive || len(want[4].([]GroupState)) != 1 {
		t.Fatalf("the leader's answers: %+v", want)
	}
	for _, f := range tc.Followers() {
		if got := ask(tc.ctl[f.ID()]); !reflect.DeepEqual(got, want) {
			t.Fatalf("follower %s got\n%+v\nthe leader answers\n%+v", f.ID(), got, want)
		}
	}

	refusals := []struct {
		name string
		ask  func(c *Controller) error
		want *state.Refused
	}{
		{"register an unknown group", func(c *Controller) error {
			_, err := c.RegisterBroker(ctx, RegisterBroker{ClusterName: "c", BrokerName: "z", BrokerID: 1, Addr: "x"})
			return err
		}, state.RefuseUnknownGroup("z")},
		{"apply a taken id", func(c *Controller) error {
			return c.ApplyBrokerID(ctx, ApplyBrokerID{ClusterName: "c", BrokerName: "b", BrokerID: 1, Addr: "x", CheckCode: "other"})
		}, &state.Refused{Reason: state.RefusalBrokerIDInvalid, Remark: "Fail to apply brokerId: 1 in broker-set: b"}},
		{"clean a living broker", func(c *Controller) error {
			return c.CleanBrokerData(ctx, CleanBrokerData{BrokerName: "b", BrokerIDs: []int64{1}})
		}, state.RefuseCleanLivingBroker("b", 1)},
		{"alter with a stale epoch", func(c *Controller) error {
			_, err := c.AlterSyncStateSet(ctx, AlterSyncStateSet{BrokerName: "b", MasterID: 1, MasterEpoch: 1, SyncStateSetEpoch: 1, NewSyncStateSet: []int64{1}})
			return err
		}, &state.Refused{Reason: state.RefusalFencedSyncStateSetEpoch, Remark: "Rejecting alter syncStateSet request because the current syncStateSet epoch is:{2}, not {1}"}},
	}
	before := leader.FSM().DigestWithoutAudit()
	audited := leader.FSM().LastAuditIndex()
	for _, r := range refusals {
		for _, n := range tc.Running() {
			var got *state.Refused
			if err := r.ask(tc.ctl[n.ID()]); !errors.As(err, &got) || *got != *r.want {
				t.Fatalf("%s from %s: %v, want %#v", r.name, n.ID(), err, r.want)
			}
		}
	}
	if leader.FSM().DigestWithoutAudit() != before {
		t.Fatal("a refused request changed the state")
	}
	for _, rec := range leader.FSM().AuditRecords(state.AuditQuery{After: audited}).Records {
		if !strings.HasPrefix(rec.Outcome, "refused") {
			t.Fatalf("audit record of a refused request: outcome %q", rec.Outcome)
		}
	}
}

// A leader with the controller switched off refuses its requests, and
// says why.
func TestController_ALeaderNotServingRefuses(t *testing.T) {
	tc := clustertest.Start(t, 3, nil)
	ctl := map[string]*Controller{}
	for _, n := range tc.Running() {
		ctl[n.ID()] = New(n, Config{Serving: !n.IsLeader(), Logger: clustertest.Logger(t)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, n := range tc.Running() {
		_, err := ctl[n.ID()].NextBrokerID(ctx, NextBrokerID{ClusterName: "c", BrokerName: "b"})
		if err == nil || !strings.Contains(err.Error(), errNotServing.Error()) {
			t.Fatalf("from %s: %v, want %v", n.ID(), err, errNotServing)
		}
	}
}
