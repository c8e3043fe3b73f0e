package cluster

import (
	"context"
	"errors"
	"fmt"
	"github.com/raftns/raftns/transport"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/transport/lane"
)

// A follower's Forward may carry only commands the registry marks
// forwardable: a forged expiry or member-directory change is refused by
// name and changes nothing.
func TestForward_LeaderRefusesLeaderOnlyCommands(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	register(t, leader, cmd)
	reg, _ := leader.node.FSM().Registration(cmd.Key())
	forged := map[fsm.CommandType]any{
		fsm.ExpireBrokersType:        &state.ExpireBrokers{Brokers: []state.ExpiredBroker{{Key: cmd.Key(), RegEpoch: reg.RegEpoch}}, Reason: "timeout"},
		fsm.SetMemberType:            &state.SetMember{Member: state.Member{ID: "intruder", ClusterAddr: "127.0.0.1:1"}},
		fsm.RemoveMemberType:         &state.RemoveMember{ID: leader.id},
		fsm.AckMinBrokerIDNoticeType: &state.AckMinBrokerIDNotice{BrokerName: cmd.BrokerName, Index: 1},
	}
	client := rawRPCClient(t, leader.addr, nil)
	for typ, c := range forged {
		buf, err := fsm.Encode(typ, c)
		if err != nil {
			t.Fatal(err)
		}
		var reply LeaderReply
		if err := client.Call("Cluster.Forward", &ForwardArgs{From: "n2", Command: buf}, &reply); err != nil {
			t.Fatal(err)
		}
		if reply.ErrKind != lane.KindOther || !strings.Contains(reply.Err, typ.String()) || !strings.Contains(reply.Err, "may not be forwarded") {
			t.Fatalf("Forward(%s) = %+v, want a refusal naming the command", typ, reply)
		}
	}
	// Give a wrongly accepted entry time to apply: the leader's next write
	// commits after it.
	register(t, leader, registration("c1", "broker-b", "10.0.0.2:10911", 0, 1))
	if !registered(leader, cmd) {
		t.Fatal("the forged expiry removed the broker")
	}
	ids := map[string]bool{}
	for _, m := range leader.node.FSM().Members() {
		ids[m.ID] = true
	}
	if ids["intruder"] {
		t.Fatal("the forged SetMember reached the member directory")
	}
}

// A follower does not even send a leader-only command.
func TestApply_RefusesLeaderOnlyCommandsOnAnyMember(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	for _, m := range tc.running() {
		_, err := m.node.Apply(context.Background(), fsm.ExpireBrokersType, &state.ExpireBrokers{})
		if !errors.Is(err, ErrNotForwardable) || !strings.Contains(err.Error(), "ExpireBrokers") {
			t.Fatalf("%s: Apply(ExpireBrokers) = %v, want ErrNotForwardable naming it", m.id, err)
		}
	}
}

// A forwarded write is proposed as the follower encoded it; garbage is
// refused with a clear error.
func TestForward_RejectsUndecodableEntries(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	leader := tc.waitLeaderReady()
	client := rawRPCClient(t, leader.addr, nil)
	for _, buf := range [][]byte{nil, {99, 1, 2}, {byte(fsm.RegisterBrokerType), 0xc1}} {
		var reply LeaderReply
		if err := client.Call("Cluster.Forward", &ForwardArgs{From: "x", Command: buf}, &reply); err != nil {
			t.Fatal(err)
		}
		if reply.ErrKind != lane.KindOther || reply.Err == "" {
			t.Fatalf("Forward(%v) = %+v, want an error", buf, reply)
		}
	}
}

// The leader applies a write that came on the forward lane and answers it
// with the FSM's result; a command that does not decode is refused.
func TestForwardLane_LeaderAppliesAndAnswers(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	leader := tc.waitLeaderReady()
	lanes := newLanes(transport.Dialer{}, nil, hclog.NewNullLogger())
	defer lanes.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	buf, err := fsm.Encode(fsm.RegisterBrokerType, cmd)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := lanes.Forward(ctx, lane.Cut{}, leader.addr, buf, false)
	if err != nil || ok.ErrKind != lane.KindNone {
		t.Fatalf("registration: %+v, %v", ok, err)
	}
	if res, err := fsm.DecodeResult(fsm.RegisterBrokerType, ok.Result); err != nil || res == nil {
		t.Fatalf("registration's result %v, %v", res, err)
	}
	if !registered(leader, cmd) {
		t.Fatal("the forwarded registration was not applied")
	}
	bad, err := lanes.Forward(ctx, lane.Cut{}, leader.addr, []byte{99, 1, 2}, false)
	if err != nil || bad.ErrKind != lane.KindOther || bad.Err == "" {
		t.Fatalf("undecodable command: %+v, %v; want an error", bad, err)
	}
}

// Writes through a follower take the lane when every member speaks it,
// and net/rpc when the leader does not: in both, they are applied and
// answered.
func TestForwardLane_FollowerUsesTheLaneOrFallsBack(t *testing.T) {
	for _, old := range []bool{false, true} {
		t.Run(fmt.Sprintf("leader without the lane=%v", old), func(t *testing.T) {
			tc := newTestCluster(t, 3, func(c *Config) { c.withoutForwardLane = old })
			leader := tc.waitLeaderReady()
			follower := tc.followers()[0]
			for i := range 5 {
				cmd := registration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i), 0, 1)
				register(t, follower, cmd)
				if !registered(leader, cmd) {
					t.Fatalf("%s not on the leader after the follower's answer", cmd.BrokerName)
				}
			}
			open, legacy := follower.node.lanes.State(leader.addr)
			if legacy != old || open == old {
				t.Fatalf("follower's lane to the leader: open %v, fallen back %v; want fallen back = %v", open, legacy, old)
			}
			if got := leader.node.Stats().ForwardedIn.Load(); got != 5 {
				t.Fatalf("leader took %d forwarded writes, want 5", got)
			}
		})
	}
}
