package cluster

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
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
		Touched        []fsm.BrokerKey
		Held           []fsm.BrokerKey
		Closed         []fsm.BrokerKey
		Replicas       []liveness.ControllerHeartbeat
		RecentlyClosed []fsm.BrokerKey
	}
	b := &liveness.Batch{From: "n2", Touched: []fsm.BrokerKey{{Cluster: "c", Addr: "a:1"}}, SenderReady: true}
	var old oldBatch
	gobInto(t, b, &old)
	if old.From != "n2" || len(old.Touched) != 1 {
		t.Fatalf("an older leader reads the batch as %+v", old)
	}
	var fromOld liveness.Batch
	gobInto(t, &oldBatch{From: "n3"}, &fromOld)
	if fromOld.From != "n3" || fromOld.SenderReady {
		t.Fatalf("an older follower's batch reads as %+v", fromOld)
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
