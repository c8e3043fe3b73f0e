package cluster

import (
	"bytes"
	"encoding/gob"
	"io"
	"net"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-msgpack/v2/codec"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/internal/adminapi"
)

// The fuzz targets below cover every decoder the cluster port runs on what
// a connection sends: the cluster-key handshake and protocol byte (mux),
// the net/rpc arguments (gob) with the forwarded command inside (fsm.Decode
// has its own target in fsm), and Raft's RPCs (msgpack).

// FuzzMuxWithKey feeds arbitrary bytes to the cluster port's accept path
// with a cluster key set: no input may panic or reach Raft or RPC.
func FuzzMuxWithKey(f *testing.F) {
	f.Add([]byte{muxRPC})
	f.Add([]byte{muxForward})
	f.Add(append(make([]byte, keyNonceLen+32), muxRaft))
	f.Add([]byte("RNSKEY1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rejected atomic.Uint64
		done := make(chan struct{})
		m := &mux{logger: hclog.NewNullLogger(), key: testClusterKey, rejected: &rejected, done: done}
		m.raft, m.rpc = newChanListener(&net.TCPAddr{}, done), newChanListener(&net.TCPAddr{}, done)
		m.forward = newChanListener(&net.TCPAddr{}, done)
		server, client := net.Pipe()
		go func() {
			defer client.Close()
			go io.Copy(io.Discard, client)
			client.Write(data)
		}()
		routed := make(chan struct{})
		go func() { m.route(server); close(routed) }()
		select {
		case c := <-m.raft.conns:
			c.Close()
			t.Fatal("an unauthenticated connection reached Raft")
		case c := <-m.rpc.conns:
			c.Close()
			t.Fatal("an unauthenticated connection reached RPC")
		case c := <-m.forward.conns:
			c.Close()
			t.Fatal("an unauthenticated connection reached the forward lane")
		case <-routed:
		}
		if rejected.Load() != 1 {
			t.Fatalf("rejected = %d, want 1", rejected.Load())
		}
		close(done)
	})
}

// FuzzRPCArgs decodes arbitrary gob streams into each argument type the
// RPC endpoint takes, as net/rpc does, and a forwarded command as Forward
// does; and into the answers a member reads from another (a heartbeat
// batch's, a status, a removal's result).
func FuzzRPCArgs(f *testing.F) {
	put, _ := fsm.Encode(fsm.PutKVType, &fsm.PutKV{Namespace: "ns", Key: "k", Value: "v", HasValue: true})
	for _, v := range []any{
		&ForwardArgs{From: "n2", Command: put},
		&HeartbeatArgs{From: "n2", Touched: []fsm.BrokerKey{{}}, SenderReadiness: liveness.SenderNotReady},
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

// FuzzKeyClientHandshake feeds arbitrary bytes to a dialing member as the
// answer of a cluster port it connects to: no input may panic, and none
// may pass for a member's proof.
func FuzzKeyClientHandshake(f *testing.F) {
	f.Add(append([]byte("RNSKEY1"), make([]byte, keyNonceLen+32)...))
	f.Add([]byte("RNSKEY1"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		client, server := net.Pipe()
		go func() {
			defer server.Close()
			go io.Copy(io.Discard, server)
			server.Write(data)
		}()
		if err := keyClientHandshake(client, testClusterKey); err == nil {
			t.Fatal("a made-up answer passed the cluster-key check")
		}
		client.Close()
	})
}
