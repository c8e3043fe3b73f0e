package namesrv

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// fakeProductionRoutes knows the broker of each topic in routes, or
// answers err; it records the topics it was asked for.
type fakeProductionRoutes struct {
	routes map[string]string
	err    error

	mu    sync.Mutex
	asked []string
}

func (f *fakeProductionRoutes) Route(_ context.Context, topic string) (*state.TopicRouteData, bool, error) {
	f.mu.Lock()
	f.asked = append(f.asked, topic)
	f.mu.Unlock()
	if f.err != nil {
		return nil, false, f.err
	}
	broker, ok := f.routes[topic]
	if !ok {
		return nil, false, nil
	}
	return &state.TopicRouteData{
		QueueDatas: []state.QueueData{{BrokerName: broker, ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6}},
		BrokerDatas: []state.BrokerData{{Cluster: "prod", BrokerName: broker, ZoneName: "zp",
			BrokerAddrs: map[int64]string{0: "10.0.0.1:10911"}}},
		FilterServerTable: map[string][]string{},
	}, true, nil
}

func (f *fakeProductionRoutes) askedFor() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asked...)
}

func startClusterTestServer(t *testing.T, prod ProductionRoutes, on string) *testServer {
	return startTestServer(t, func(c *Config) {
		c.Settings = NewSettings(map[string]string{PropClusterTest: on, PropOrderMessageEnable: "false"}, nil)
		c.Production = prod
	})
}

func (ts *testServer) route(t *testing.T, topic string) *remoting.Command {
	t.Helper()
	return ts.call(t, req(remoting.GetRouteInfoByTopic, 479, map[string]string{"topic": topic}, nil))
}

func TestClusterTest_UnknownTopicsFromProductionLocalOnesAsAlways(t *testing.T) {
	prod := &fakeProductionRoutes{routes: map[string]string{"P": "broker-prod", "L": "broker-prod"}}
	ts := startClusterTestServer(t, prod, "true")
	ts.register(t, "broker-local", 0, "127.0.0.1:1", false, 1, "L")

	for range 2 { // the second query takes the route cache's path
		resp := ts.route(t, "P")
		if resp.Code != remoting.Success {
			t.Fatalf("route of P: code %d %s", resp.Code, resp.Remark)
		}
		route, err := body.DecodeTopicRouteData(resp.Body)
		if err != nil || route.BrokerDatas[0].BrokerName != "broker-prod" {
			t.Fatalf("route of P = %+v, %v; want production's broker", route, err)
		}
	}
	if resp := ts.route(t, "unknown"); resp.Code != remoting.TopicNotExist ||
		!strings.Contains(resp.Remark, "No topic route info in name server for the topic: unknown") {
		t.Fatalf("unknown topic: code %d %q, want TOPIC_NOT_EXIST", resp.Code, resp.Remark)
	}
	resp := ts.route(t, "L")
	route, err := body.DecodeTopicRouteData(resp.Body)
	if resp.Code != remoting.Success || err != nil || route.BrokerDatas[0].BrokerName != "broker-local" {
		t.Fatalf("local topic L: code %d, route %+v, %v; want the local broker", resp.Code, route, err)
	}
	if got := prod.askedFor(); strings.Join(got, ",") != "P,P,unknown" {
		t.Fatalf("production asked for %v, want P, P, unknown (never for the local topic)", got)
	}
	if _, ok := ts.node.FSM().Route("P", false); ok {
		t.Fatal("production's route was written into this cluster's state")
	}
}

func TestClusterTest_OffByDefaultAndSwitchedAtRunTime(t *testing.T) {
	prod := &fakeProductionRoutes{routes: map[string]string{"P": "broker-prod"}}
	ts := startClusterTestServer(t, prod, "false")
	if resp := ts.route(t, "P"); resp.Code != remoting.TopicNotExist {
		t.Fatalf("mode off: code %d, want TOPIC_NOT_EXIST", resp.Code)
	}
	if resp := ts.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte("clusterTest=true\n"))); resp.Code != remoting.Success {
		t.Fatalf("UPDATE_NAMESRV_CONFIG clusterTest=true: code %d %s", resp.Code, resp.Remark)
	}
	if resp := ts.route(t, "P"); resp.Code != remoting.Success {
		t.Fatalf("mode switched on: code %d %s, want SUCCESS", resp.Code, resp.Remark)
	}
	ts.call(t, req(remoting.UpdateNamesrvConfig, 479, nil, []byte("clusterTest=false\n")))
	if resp := ts.route(t, "P"); resp.Code != remoting.TopicNotExist {
		t.Fatalf("mode switched off: code %d, want TOPIC_NOT_EXIST", resp.Code)
	}
}

func TestClusterTest_FailuresAreClearErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int32
	}{
		{errors.New("production name servers of environment \"center\" (127.0.0.1:1) unreachable"), remoting.SystemError},
		{ErrProductionBusy, remoting.SystemBusy},
	} {
		ts := startClusterTestServer(t, &fakeProductionRoutes{err: tc.err}, "true")
		resp := ts.route(t, "P")
		if resp.Code != tc.code || resp.Remark != remarkClusterTest+tc.err.Error() {
			t.Fatalf("code %d %q, want %d %q", resp.Code, resp.Remark, tc.code, remarkClusterTest+tc.err.Error())
		}
	}
}

func TestClusterTest_ZoneModeFiltersProductionsRoute(t *testing.T) {
	ts := startClusterTestServer(t, &fakeProductionRoutes{routes: map[string]string{"P": "broker-prod"}}, "true")
	resp := ts.call(t, req(remoting.GetRouteInfoByTopic, 479,
		map[string]string{"topic": "P", "__ZONE_MODE": "true", "__ZONE_NAME": "other"}, nil))
	route, err := body.DecodeTopicRouteData(resp.Body)
	if resp.Code != remoting.Success || err != nil || len(route.BrokerDatas) != 0 {
		t.Fatalf("zone other: code %d, route %+v, %v; want no broker of zone zp", resp.Code, route, err)
	}
}
