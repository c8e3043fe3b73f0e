package cluster

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// gobInto encodes v as the cluster port's RPCs do and decodes it into out.
func gobInto(t *testing.T, v, out any) {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := gob.NewDecoder(&buf).Decode(out); err != nil {
		t.Fatalf("decode %T into %T: %v", v, out, err)
	}
}

// TestHeartbeats_ReadinessFieldsCrossReleases checks that the fields the
// address service adds to the heartbeat batch and its answer are read,
// and ignored, by the shapes a release without them uses.
func TestHeartbeats_ReadinessFieldsCrossReleases(t *testing.T) {
	// The batch of a release without SenderReady.
	type oldBatch struct {
		From           string
		Touched        []state.BrokerKey
		Held           []state.BrokerKey
		Closed         []state.BrokerKey
		Replicas       []liveness.ControllerHeartbeat
		RecentlyClosed []state.BrokerKey
	}
	b := &liveness.Batch{From: "n2", Touched: []state.BrokerKey{{Cluster: "c", Addr: "a:1"}}, SenderReadiness: liveness.SenderReady}
	var old oldBatch
	gobInto(t, b, &old)
	if old.From != "n2" || len(old.Touched) != 1 {
		t.Fatalf("an older leader reads the batch as %+v", old)
	}
	var fromOld liveness.Batch
	gobInto(t, &oldBatch{From: "n3"}, &fromOld)
	if fromOld.From != "n3" || fromOld.SenderReadiness != 0 {
		t.Fatalf("an older follower's batch reads as %+v, want its readiness not said", fromOld)
	}

	reply := &HeartbeatReply{Result: []byte("42"), ReadyMembers: []string{"n1", "n2"}}
	var lr LeaderReply
	gobInto(t, reply, &lr)
	if string(lr.Result) != "42" || lr.ErrKind != "" {
		t.Fatalf("an older follower reads the answer as %+v", lr)
	}
	var back HeartbeatReply
	gobInto(t, &LeaderReply{Result: []byte("7")}, &back)
	if string(back.Result) != "7" || back.ReadyMembers != nil {
		t.Fatalf("an older leader's answer reads as %+v", back)
	}
	var refused HeartbeatReply
	gobInto(t, &LeaderReply{ErrKind: "not-leader", Err: "cluster: not leader"}, &refused)
	if !reflect.DeepEqual(refused, HeartbeatReply{ErrKind: "not-leader", Err: "cluster: not leader"}) {
		t.Fatalf("a refusal reads as %+v", refused)
	}
}

// TestHeartbeats_AFollowerThatDoesNotSayIsCountedReady sends the leader
// batches in the name of a stopped follower, as a member of a release
// without SenderReadiness would send them: it is counted ready while it
// sends, and one that says it is not ready is not.
func TestHeartbeats_AFollowerThatDoesNotSayIsCountedReady(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	// The leader answers about the members of the directory: wait until
	// it lists the one that will go quiet.
	poll.For(t, 10*time.Second, "every member in the directory", func() bool { return len(leader.node.FSM().Members()) == 3 })
	quiet := tc.followers()[0]
	tc.stop(quiet)
	endpoint := &rpcEndpoint{n: leader.node}
	listed := func(readiness uint8) bool {
		var reply HeartbeatReply
		if err := endpoint.Heartbeats(&HeartbeatArgs{From: quiet.id, SenderReadiness: readiness}, &reply); err != nil || reply.ErrKind != "" {
			t.Fatalf("heartbeats: %v %+v", err, reply)
		}
		return slices.Contains(reply.ReadyMembers, quiet.id) && slices.Contains(reply.ReadyMembers, leader.id)
	}
	if !listed(0) {
		t.Fatal("a follower that does not say whether it is ready was not counted ready")
	}
	if listed(liveness.SenderNotReady) {
		t.Fatal("a follower that says it is not ready was counted ready")
	}
	if !listed(liveness.SenderReady) {
		t.Fatal("a ready follower was not counted ready")
	}
}
