package main

import (
	"bufio"
	"net"
	"net/http"
	"net/rpc"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
)

// The first byte a cluster-port connection sends to choose Raft or RPC
// (the member-to-member wire format).
const (
	outsiderRaftByte = 0x01
	outsiderRPCByte  = 0x02
)

// outsiderRPC calls a cluster RPC as a process that is not a member would:
// plain TCP, the RPC protocol byte, net/rpc, no key and no certificate.
func outsiderRPC(addr, method string, args, reply any) error {
	conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return err
	}
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write([]byte{outsiderRPCByte}); err != nil {
		conn.Close()
		return err
	}
	c := rpc.NewClient(conn)
	defer c.Close()
	return c.Call("Cluster."+method, args, reply)
}

// outsiderStream is a Raft stream layer that dials like an outsider.
type outsiderStream struct{ net.Listener }

func (outsiderStream) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	conn, err := net.DialTimeout("tcp", string(addr), timeout)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Write([]byte{outsiderRaftByte}); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// outsiderAppendEntries sends a Raft AppendEntries from a made-up leader
// with a high term, which a member that listened would answer by stepping
// down.
func outsiderAppendEntries(t *testing.T, addr string) error {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	trans := raft.NewNetworkTransportWithConfig(&raft.NetworkTransportConfig{
		Stream: outsiderStream{ln}, MaxPool: 1, Timeout: 3 * time.Second, Logger: hclog.NewNullLogger(),
	})
	defer trans.Close()
	var resp raft.AppendEntriesResponse
	return trans.AppendEntries("target", raft.ServerAddress(addr), &raft.AppendEntriesRequest{
		RPCHeader: raft.RPCHeader{ID: []byte("intruder"), Addr: []byte(ln.Addr().String())},
		Term:      1000,
	}, &resp)
}

// metricValue reads one unlabelled sample from a member's /metrics.
func metricValue(t *testing.T, p *proc, name string) float64 {
	t.Helper()
	resp, err := http.Get("http://" + p.HTTPAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
	}
	t.Fatalf("%s has no %s", p.ID, name)
	return 0
}
