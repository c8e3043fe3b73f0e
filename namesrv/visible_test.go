package namesrv

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/raftns/raftns/protocol/remoting"
)

// lagging wraps a member's node; once behind is set it reports a write it
// answered that its state does not show yet, and never will.
type lagging struct {
	Cluster
	behind *atomic.Bool
	waits  *atomic.Int64
}

func (l lagging) Visible() bool { return !l.behind.Load() && l.Cluster.Visible() }
func (l lagging) AwaitVisible(ctx context.Context) error {
	if !l.behind.Load() {
		return l.Cluster.AwaitVisible(ctx)
	}
	l.waits.Add(1)
	return errors.New("index 99 not applied")
}

// A member behind a write it answered does not answer reads from its state
// (the cached route of the inline path included) until it shows the write;
// a changed registration, which the leader decides, does not wait.
func TestVisibility_ReadsWaitForWritesTheMemberAnswered(t *testing.T) {
	ts := startTestServer(t, nil)
	var behind atomic.Bool
	var waits atomic.Int64
	srv := New(DefaultConfig(), lagging{Cluster: ts.node, behind: &behind, waits: &waits})
	ln := listen(t)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	ts2 := &testServer{node: ts.node, srv: srv, client: ts.client, addr: ln.Addr().String()}

	mustCode(t, ts2.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))), remoting.Success)
	route := req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil)
	mustCode(t, ts2.call(t, route), remoting.Success)
	mustCode(t, ts2.call(t, route), remoting.Success) // now answered from the cache

	behind.Store(true)
	for _, r := range []*remoting.Command{
		route,
		req(remoting.GetKVConfig, 479, map[string]string{"namespace": "NS", "key": "k"}, nil),
		req(remoting.GetBrokerClusterInfo, 479, nil, nil),
		req(remoting.QueryDataVersion, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), nil),
	} {
		resp := ts2.call(t, r)
		mustCode(t, resp, remoting.SystemError)
		if !strings.HasPrefix(resp.Remark, RemarkBehindOwnWrite) {
			t.Fatalf("code %d answered %q, want the remark of a member behind its own write", r.Code, resp.Remark)
		}
	}
	if got := waits.Load(); got != 4 {
		t.Fatalf("%d waits for the member's own writes, want 4", got)
	}
	reg := req(remoting.RegisterBroker, 479, brokerExt("broker-b", "10.0.0.2:10911", "0"), registerBody(t, 1, "TopicB"))
	mustCode(t, ts2.call(t, reg), remoting.Success)
	if got := waits.Load(); got != 4 {
		t.Fatalf("a changed registration waited for the member's own writes (%d waits)", got)
	}
}
