package transport

import (
	"io"
	"net"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/go-hclog"
)

// testClusterKey is the cluster key of the fuzz targets.
var testClusterKey = []byte("0123456789abcdef0123456789abcdef")

// The fuzz targets below cover what the cluster port and a dialing member
// decode before a protocol is chosen: the cluster-key handshake on both
// sides and the protocol byte.

// FuzzMuxWithKey feeds arbitrary bytes to the cluster port's accept path
// with a cluster key set: no input may panic or reach Raft or RPC.
func FuzzMuxWithKey(f *testing.F) {
	f.Add([]byte{ProtoRPC})
	f.Add([]byte{ProtoForward})
	f.Add(append(make([]byte, keyNonceLen+32), ProtoRaft))
	f.Add([]byte("RNSKEY1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rejected atomic.Uint64
		done := make(chan struct{})
		m := &Mux{logger: hclog.NewNullLogger(), key: testClusterKey, rejected: &rejected, done: done}
		m.Raft, m.RPC = NewChanListener(&net.TCPAddr{}, done), NewChanListener(&net.TCPAddr{}, done)
		m.Forward = NewChanListener(&net.TCPAddr{}, done)
		server, client := net.Pipe()
		go func() {
			defer client.Close()
			go io.Copy(io.Discard, client)
			client.Write(data)
		}()
		routed := make(chan struct{})
		go func() { m.route(server); close(routed) }()
		select {
		case c := <-m.Raft.conns:
			c.Close()
			t.Fatal("an unauthenticated connection reached Raft")
		case c := <-m.RPC.conns:
			c.Close()
			t.Fatal("an unauthenticated connection reached RPC")
		case c := <-m.Forward.conns:
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
