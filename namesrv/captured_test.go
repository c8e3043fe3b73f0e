package namesrv

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/raftns/raftns/protocol/remoting"
)

// capturedDir holds frames recorded between real RocketMQ software and the
// reference NameServer (see its README.md).
const capturedDir = "../testdata/frames/captured"

func capturedFrame(t *testing.T, name string) *remoting.Command {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturedDir, name))
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := remoting.DecodeFrame(b[4:])
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return cmd
}

func extKeys(c *remoting.Command) []string {
	var keys []string
	for k := range c.ExtFields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// replay sends a captured request to the server and checks the answer
// against the reference NameServer's captured answer: same code, same
// header fields, and the same body bytes when exact is set.
func replay(t *testing.T, ts *testServer, prefix string, exact bool) *remoting.Command {
	t.Helper()
	req := capturedFrame(t, prefix+".req.bin")
	want := capturedFrame(t, prefix+".resp.bin")
	got := ts.call(t, req)
	if got.Code != want.Code {
		t.Fatalf("%s: code %d (%q), reference answered %d (%q)", prefix, got.Code, got.Remark, want.Code, want.Remark)
	}
	if got.Remark != want.Remark {
		t.Fatalf("%s: remark %q, reference %q", prefix, got.Remark, want.Remark)
	}
	if g, w := extKeys(got), extKeys(want); len(g) != len(w) || (len(g) > 0 && g[0] != w[0]) {
		t.Fatalf("%s: header fields %v, reference %v", prefix, g, w)
	}
	if (len(got.Body) == 0) != (len(want.Body) == 0) {
		t.Fatalf("%s: body %q, reference %q", prefix, got.Body, want.Body)
	}
	if exact && string(got.Body) != string(want.Body) {
		t.Fatalf("%s: body differs from the reference\n got %s\nwant %s", prefix, got.Body, want.Body)
	}
	return got
}

// TestCaptured_ReplayAgainstReferenceAnswers replays what real 5.5.0 and
// 4.9.7 brokers and 4.9.8 and 5.5.0 clients sent to the reference NameServer and expects
// the reference's answers, byte for byte where the state is the same.
func TestCaptured_ReplayAgainstReferenceAnswers(t *testing.T) {
	ts := startTestServer(t, nil)
	replay(t, ts, "broker-5.5.0__REGISTER_BROKER__full", false)
	replay(t, ts, "broker-5.5.0__REGISTER_BROKER__one-topic", false)

	// Routes as the 5.5.0 and 4.9.7 Java clients ask for them (JSON and
	// binary headers) and cluster info: the same state gives the same bytes.
	replay(t, ts, "client-5.5.0__GET_ROUTEINFO_BY_TOPIC", true)
	replay(t, ts, "client-4.9.8__GET_ROUTEINFO_BY_TOPIC", true)
	replay(t, ts, "client-4.9.8-rocketmq-serialize__GET_ROUTEINFO_BY_TOPIC", true)
	replay(t, ts, "client-5.5.0__GET_ROUTEINFO_BY_TOPIC__topic-not-exist", true)
	replay(t, ts, "client-5.5.0__GET_BROKER_CLUSTER_INFO", true)

	// 4.9.7 brokers, plain and compressed, and 5.5.0 acting-master brokers.
	for _, p := range []string{
		"broker-4.9.7__REGISTER_BROKER__full", "broker-4.9.7__REGISTER_BROKER__one-topic",
		"broker-4.9.7-compressed__REGISTER_BROKER__full", "broker-4.9.7-compressed__REGISTER_BROKER__one-topic",
		"broker-5.5.0-acting-master__REGISTER_BROKER__full", "broker-5.5.0-acting-master-new-ns__REGISTER_BROKER__full",
	} {
		replay(t, ts, p, false)
	}
	for _, topic := range []string{"cap-topic", "cap-topic-4", "cap-topic-4z"} {
		if _, ok := ts.node.FSM().Route(topic, false); !ok {
			t.Fatalf("no route for %s after replaying its broker's registrations", topic)
		}
	}
	replay(t, ts, "broker-5.5.0-acting-master__GET_ROUTEINFO_BY_TOPIC__sync-broker-member", true)
	got := replay(t, ts, "broker-5.5.0-acting-master-new-ns__GET_BROKER_MEMBER_GROUP", false)
	want := capturedFrame(t, "broker-5.5.0-acting-master-new-ns__GET_BROKER_MEMBER_GROUP.resp.bin")
	if string(got.Body) != string(want.Body) {
		t.Fatalf("member group = %s, reference %s", got.Body, want.Body)
	}

	// Oneway heartbeats are handled without an answer.
	for _, name := range []string{"broker-5.5.0-acting-master__QUERY_DATA_VERSION.oneway.bin", "broker-5.5.0-acting-master-new-ns__BROKER_HEARTBEAT.oneway.bin"} {
		hb := capturedFrame(t, name)
		if !hb.IsOneway() {
			t.Fatalf("%s is not oneway", name)
		}
		if resp := ts.srv.ServeRemoting(t.Context(), nil, hb); resp == nil || resp.Code != remoting.Success {
			t.Fatalf("%s handled with %+v", name, resp)
		}
	}

	// Graceful broker shutdowns unregister.
	for _, p := range []string{"broker-5.5.0__UNREGISTER_BROKER", "broker-4.9.7__UNREGISTER_BROKER", "broker-4.9.7-compressed__UNREGISTER_BROKER"} {
		replay(t, ts, p, false)
	}
	for _, topic := range []string{"cap-topic", "cap-topic-4", "cap-topic-4z"} {
		if _, ok := ts.node.FSM().Route(topic, false); ok {
			t.Fatalf("route for %s survived its broker's unregistration", topic)
		}
	}
}

// TestCaptured_ZoneAndActingMasterRoutes replays the registrations of a
// 5.5.0 acting-master group (master and slave in zone zoneA) and a master in
// zoneB, then a 5.5.0 client's zone-mode route query and, after the master
// left, its route query with supportActingMaster on: the answers are the
// reference's, byte for byte (the zone answer in the default JSON form).
func TestCaptured_ZoneAndActingMasterRoutes(t *testing.T) {
	ts := startTestServer(t, func(c *Config) {
		c.Settings = NewSettings(map[string]string{PropSupportActingMaster: "true"}, nil)
	})
	for _, p := range []string{
		"broker-5.5.0-am-master__REGISTER_BROKER__full", "broker-5.5.0-am-master__REGISTER_BROKER__one-topic",
		"broker-5.5.0-am-slave__REGISTER_BROKER__full", "broker-5.5.0-zone-b__REGISTER_BROKER__full",
	} {
		replay(t, ts, p, false)
	}
	replay(t, ts, "client-5.5.0-zone-a__GET_ROUTEINFO_BY_TOPIC", true)

	// The reference unregistered the SIGKILLed master when its channel closed.
	master := capturedFrame(t, "broker-5.5.0-am-master__REGISTER_BROKER__full.req.bin").ExtFields
	resp := ts.call(t, req(remoting.UnregisterBroker, 513, map[string]string{"clusterName": master["clusterName"],
		"brokerName": master["brokerName"], "brokerAddr": master["brokerAddr"], "brokerId": "0"}, nil))
	if resp.Code != remoting.Success {
		t.Fatalf("unregister: %d %s", resp.Code, resp.Remark)
	}
	replay(t, ts, "client-5.5.0-acting__GET_ROUTEINFO_BY_TOPIC", true)
}
