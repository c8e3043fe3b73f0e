package cluster

import (
	"bytes"
	"encoding/gob"
	"testing"

	"github.com/hashicorp/go-msgpack/v2/codec"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
)

// The fuzz targets below cover the decoders the cluster port runs on what
// a connection sends once the mux has handed it on (the cluster-key
// handshake and protocol byte have their targets in package transport):
// the net/rpc arguments (gob) with the forwarded command inside (fsm.Decode
// has its own target in fsm), and Raft's RPCs (msgpack).

// FuzzRPCArgs decodes arbitrary gob streams into each argument type the
// RPC endpoint takes, as net/rpc does, and a forwarded command as Forward
// does; and into the answers a member reads from another (a heartbeat
// batch's, a status, a removal's result).
func FuzzRPCArgs(f *testing.F) {
	put, _ := fsm.Encode(fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "v", HasValue: true})
	for _, v := range []any{
		&ForwardArgs{From: "n2", Command: put},
		&HeartbeatArgs{From: "n2", Touched: []state.BrokerKey{{}}, SenderReadiness: liveness.SenderNotReady},
		&JoinArgs{ID: "n4", ClusterAddr: "127.0.0.1:1"},
		&RemoveArgs{ID: "n4", Force: true, DrainMillis: 30000, DrainGiven: true},
		&StatusArgs{},
		&HeartbeatReply{Result: []byte("42"), ReadyMembers: []string{"n1", "n2"}},
		&adminapi.Status{ID: "n2", Ready: true, LeaderID: "n1", Configuration: []string{"n1", "n2"}},
	} {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(v); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fwd ForwardArgs
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&fwd) == nil {
			_, _, _ = fsm.Decode(fwd.Command)
		}
		for _, v := range []any{&HeartbeatArgs{}, &JoinArgs{}, &RemoveArgs{}, &StatusArgs{}, &HeartbeatReply{}, &adminapi.Status{}} {
			_ = gob.NewDecoder(bytes.NewReader(data)).Decode(v)
		}
		var ra RemoveArgs
		if gob.NewDecoder(bytes.NewReader(data)).Decode(&ra) == nil {
			if d := ra.options().Drain; d < DefaultDrain || d > MaxDrain || (ra.DrainGiven && d < 0) {
				t.Fatalf("a removal's drain decoded as %v from %+v", d, ra)
			}
		}
		_, _ = decodeRemoveResult(data)
	})
}

// FuzzRaftRPC decodes arbitrary bytes as Raft's network transport does: a
// type byte, then the msgpack request.
func FuzzRaftRPC(f *testing.F) {
	var buf bytes.Buffer
	enc := codec.NewEncoder(&buf, &codec.MsgpackHandle{})
	_ = enc.Encode(&raft.AppendEntriesRequest{Term: 2, Entries: []*raft.Log{{Index: 1, Term: 1, Data: []byte("x")}}})
	f.Add(append([]byte{0}, buf.Bytes()...))
	buf.Reset()
	_ = enc.Encode(&raft.RequestVoteRequest{Term: 3})
	f.Add(append([]byte{1}, buf.Bytes()...))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		dec := codec.NewDecoder(bytes.NewReader(data[1:]), &codec.MsgpackHandle{})
		var v any
		switch data[0] % 5 {
		case 0:
			v = &raft.AppendEntriesRequest{}
		case 1:
			v = &raft.RequestVoteRequest{}
		case 2:
			v = &raft.InstallSnapshotRequest{}
		case 3:
			v = &raft.TimeoutNowRequest{}
		default:
			v = &raft.RequestPreVoteRequest{}
		}
		_ = dec.Decode(v)
	})
}
