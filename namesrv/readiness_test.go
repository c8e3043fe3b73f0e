package namesrv

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/raftns/raftns/protocol/remoting"
)

// unready wraps a member's node and reports it not ready.
type unready struct{ Cluster }

func (unready) Ready() (bool, string) { return false, "test" }

func TestReadiness_UnreadyMemberDropsReadsButTakesRegistrations(t *testing.T) {
	ts := startTestServer(t, nil)
	srv := New(DefaultConfig(), unready{ts.node})
	ts2 := &testServer{node: ts.node, srv: srv, client: ts.client}
	ln := listen(t)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	ts2.addr = ln.Addr().String()

	// A broker registration is still served (and forwarded in a cluster).
	mustCode(t, ts2.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))), remoting.Success)

	// A client read gets no answer: the connection is closed so the client
	// moves on to another name server.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := ts.client.Remoting().Invoke(ctx, ts2.addr, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil))
	if !errors.Is(err, remoting.ErrConnClosed) {
		t.Fatalf("read on an unready member: err = %v, want the connection closed", err)
	}
	// The ready member serves the same route.
	mustCode(t, ts.call(t, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil)), remoting.Success)
}

// removed wraps a member's node and reports it removed from the cluster.
type removed struct{ Cluster }

func (removed) Ready() (bool, string) { return false, "removed from the cluster" }
func (removed) Removed() bool         { return true }

func TestReadiness_RemovedMemberAnswersEveryRequestSayingSo(t *testing.T) {
	ts := startTestServer(t, nil)
	srv := New(DefaultConfig(), removed{ts.node})
	ln := listen(t)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	ts2 := &testServer{node: ts.node, srv: srv, client: ts.client, addr: ln.Addr().String()}

	gen := ts.node.FSM().Generation()
	for _, r := range []*remoting.Command{
		req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil),
		req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA")),
		req(remoting.PutKVConfig, 479, map[string]string{"namespace": "NS", "key": "k", "value": "v"}, nil),
	} {
		resp := ts2.call(t, r)
		mustCode(t, resp, remoting.SystemError)
		if resp.Remark != RemarkRemoved {
			t.Fatalf("code %d answered %q, want %q", r.Code, resp.Remark, RemarkRemoved)
		}
	}
	if ts.node.FSM().Generation() != gen {
		t.Fatal("a removed member applied a write")
	}
}
