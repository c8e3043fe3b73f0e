package namesrv

import (
	"bytes"
	"strings"
	"testing"

	"github.com/raftns/raftns/protocol/remoting"
)

// TestServeInline_AnswersCachedRoutesOnly: a route query is answered on the
// read goroutine only once its answer is cached for the current state; the
// inline answer is the handler's (route or TOPIC_NOT_EXIST), is observed as
// a route query, and a change of state sends the next query to the handler
// again, which answers with the new route.
func TestServeInline_AnswersCachedRoutesOnly(t *testing.T) {
	obs := &recordingObserver{codes: map[int32]int{}}
	ts := startTestServer(t, func(c *Config) { c.Observer = obs })
	inline := func() uint64 { return ts.srv.Remoting().Stats().Inline }
	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))), remoting.Success)
	route := func(topic string) *remoting.Command {
		return ts.call(t, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": topic}, nil))
	}

	built := route("TopicA")
	mustCode(t, built, remoting.Success)
	if got := inline(); got != 0 {
		t.Fatalf("first query answered inline (%d), want by the handler, which builds the answer", got)
	}
	cached := route("TopicA")
	if got := inline(); got != 1 || cached.Code != remoting.Success || !bytes.Equal(cached.Body, built.Body) {
		t.Fatalf("second query: inline %d, code %d, same body %v; want inline 1 with the built answer",
			got, cached.Code, bytes.Equal(cached.Body, built.Body))
	}
	missing, missingAgain := route("Nope"), route("Nope")
	if got := inline(); got != 2 || missingAgain.Code != remoting.TopicNotExist || missingAgain.Remark != missing.Remark {
		t.Fatalf("unknown topic: inline %d, answers %d %q then %d %q; want the handler's answer repeated inline",
			got, missing.Code, missing.Remark, missingAgain.Code, missingAgain.Remark)
	}
	mustCode(t, route(""), remoting.SystemError) // malformed: the handler's error
	if got := inline(); got != 2 {
		t.Fatalf("query without a topic answered inline (%d)", got)
	}

	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 2, "TopicA", "TopicC"))), remoting.Success)
	changed := route("TopicC")
	if got := inline(); got != 2 || changed.Code != remoting.Success {
		t.Fatalf("after a change: inline %d, code %d; want the handler to build the new route", got, changed.Code)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if got := obs.codes[remoting.GetRouteInfoByTopic]; got != 6 {
		t.Fatalf("observed %d route queries, want all 6", got)
	}
}

// TestServeInline_UnreadyMemberLeavesReadsToTheHandler: even with a cached
// answer, an unready member answers nothing inline, so that the handler
// drops the connection as it does for every read.
func TestServeInline_UnreadyMemberLeavesReadsToTheHandler(t *testing.T) {
	ts := startTestServer(t, nil)
	mustCode(t, ts.call(t, req(remoting.RegisterBroker, 479, brokerExt("broker-a", "10.0.0.1:10911", "0"), registerBody(t, 1, "TopicA"))), remoting.Success)
	q := req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": "TopicA"}, nil)
	srv := New(DefaultConfig(), unready{ts.node})
	key, err := srv.routeKeyOf(q)
	if err != nil {
		t.Fatal(err)
	}
	srv.routes.put(srv.fsm.Generation(), key, routeResponse([]byte("{}")))
	if resp, ok := srv.ServeInline(nil, q); ok {
		t.Fatalf("unready member answered inline: %+v", resp)
	}
	ready := New(DefaultConfig(), ts.node)
	ready.routes.put(ready.fsm.Generation(), key, routeResponse([]byte("{}")))
	if resp, ok := ready.ServeInline(nil, q); !ok || resp.Code != remoting.Success || string(resp.Body) != "{}" {
		t.Fatalf("ready member with the answer cached: %+v, %v; want it inline", resp, ok)
	}
	for _, code := range []int32{remoting.RegisterBroker, remoting.GetKVConfig, remoting.GetBrokerClusterInfo} {
		if _, ok := ready.ServeInline(nil, req(code, 479, map[string]string{"topic": "TopicA"}, nil)); ok {
			t.Fatalf("request %d answered inline; only cached route queries are", code)
		}
	}
	if !strings.Contains(string(ts.call(t, q).Body), "broker-a") {
		t.Fatal("the serving member lost its route")
	}
}
