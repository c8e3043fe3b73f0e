package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// TestProcess_ClusterTestModeAnswersUnknownTopicsFromProduction: a
// "production" RaftNS member holds topic P; a three-member "test" cluster
// in cluster-test mode, pointed at production by NAMESRV_ADDR, answers
// P's route with production's broker through every member, an unknown
// topic with TOPIC_NOT_EXIST, and never lists P. With production hung,
// then killed, P's query is a clear error answered before a Java
// client's 3 s route timeout, and the test cluster's own topics are
// answered as before.
func TestProcess_ClusterTestModeAnswersUnknownTopicsFromProduction(t *testing.T) {
	prod := newProc(t, "prod")
	prod.start()
	prod.waitReady()
	c := newClient(t)
	ctx := ctxT(t, 3*time.Minute)
	if _, err := c.RegisterBroker(ctx, prod.ClientAddr, brokerRegistration("prod-cluster", "broker-prod", "127.0.0.1:20911", 0, 1, "P")); err != nil {
		t.Fatal(err)
	}

	t.Setenv("NAMESRV_ADDR", prod.ClientAddr) // inherited by the test cluster's members
	test := startCluster(t, 3, "--cluster-test", "--product-env-name", "prod")
	leader := leaderOf(t, test)
	if _, err := c.RegisterBroker(ctx, leader.ClientAddr, brokerRegistration("test-cluster", "broker-test", "127.0.0.1:21911", 0, 1, "L")); err != nil {
		t.Fatal(err)
	}
	poll.For(t, 30*time.Second, "L on every test member", func() bool {
		for _, p := range test {
			if _, err := c.GetRoute(ctx, p.ClientAddr, "L"); err != nil {
				return false
			}
		}
		return true
	})

	// The Java clients' route query timeout: every answer below must come
	// before it, as an answer, not as the client giving up.
	javaLike := nsclient.New(remoting.ClientConfig{RequestTimeout: 3 * time.Second})
	t.Cleanup(func() { javaLike.Close() })
	for _, p := range test {
		route, err := javaLike.GetRoute(ctx, p.ClientAddr, "P")
		if err != nil {
			t.Fatalf("%s: route of P: %v", p.ID, err)
		}
		if !routesTo(route, "broker-prod", "127.0.0.1:20911") {
			t.Fatalf("%s: route of P = %+v, want production's broker-prod", p.ID, route)
		}
		if _, err := javaLike.GetRoute(ctx, p.ClientAddr, "nowhere"); !nsclient.IsCode(err, remoting.TopicNotExist) {
			t.Fatalf("%s: route of an unknown topic: %v, want TOPIC_NOT_EXIST", p.ID, err)
		}
		topics, err := c.GetAllTopics(ctx, p.ClientAddr)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(topics, "P") || !slices.Contains(topics, "L") {
			t.Fatalf("%s: topic list %v, want L and not P", p.ID, topics)
		}
		if n := productionLookups(t, p, "found"); n < 1 {
			t.Fatalf("%s: ns_production_lookups_total{result=found} = %v after a lookup", p.ID, n)
		}
	}

	// Hung production (SIGSTOP: connections are accepted, nothing is
	// answered): the lookup's own timeout ends it.
	if err := syscall.Kill(prod.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitStopped(t, prod)
	t.Cleanup(func() { syscall.Kill(prod.Pid(), syscall.SIGCONT) })
	expectProductionError(t, javaLike, test, "P-hung")
	// Stopped production: the connection is refused.
	prod.Kill()
	expectProductionError(t, javaLike, test, "P")
	for _, p := range test {
		route, err := javaLike.GetRoute(ctx, p.ClientAddr, "L")
		if err != nil || !routesTo(route, "broker-test", "127.0.0.1:21911") {
			t.Fatalf("%s: local topic with production down: %+v, %v", p.ID, route, err)
		}
		if n := productionLookups(t, p, "error"); n < 2 {
			t.Fatalf("%s: ns_production_lookups_total{result=error} = %v after two failed lookups", p.ID, n)
		}
	}
}

// expectProductionError asks every member for topic until production's
// cached answer (if any) has expired: the answer is SYSTEM_ERROR naming
// cluster-test mode and production's address, never the client's timeout.
func expectProductionError(t *testing.T, c *nsclient.Client, ps []*proc, topic string) {
	t.Helper()
	for _, p := range ps {
		var last error
		poll.For(t, 30*time.Second, p.ID+": an error for "+topic, func() bool {
			_, last = c.GetRoute(ctxT(t, 10*time.Second), p.ClientAddr, topic)
			return last != nil
		})
		if !nsclient.IsCode(last, remoting.SystemError) || !strings.Contains(last.Error(), "cluster-test mode: ") ||
			!strings.Contains(last.Error(), "unreachable") {
			t.Fatalf("%s: route of %s with production down: %v, want SYSTEM_ERROR saying production is unreachable", p.ID, topic, last)
		}
	}
}

func routesTo(route *state.TopicRouteData, broker, addr string) bool {
	return route != nil && len(route.BrokerDatas) == 1 && route.BrokerDatas[0].BrokerName == broker &&
		route.BrokerDatas[0].BrokerAddrs[0] == addr
}

// productionLookups is the member's ns_production_lookups_total{result}.
func productionLookups(t *testing.T, p *proc, result string) float64 {
	t.Helper()
	f, ok := scrapeMetrics(t, p)["ns_production_lookups_total"]
	if !ok {
		t.Fatalf("%s: /metrics has no ns_production_lookups_total", p.ID)
	}
	for _, m := range f.GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "result" && l.GetValue() == result {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// TestProcess_ClusterTestModeFindsProductionThroughTheAddressService: a
// test member given only production's address service (a RaftNS member's
// admin port serves /rocketmq/nsaddr-<unit>) answers production's route.
func TestProcess_ClusterTestModeFindsProductionThroughTheAddressService(t *testing.T) {
	prod := newProc(t, "prod")
	prod.start()
	prod.waitReady()
	c := newClient(t)
	ctx := ctxT(t, 2*time.Minute)
	if _, err := c.RegisterBroker(ctx, prod.ClientAddr, brokerRegistration("prod-cluster", "broker-prod", "127.0.0.1:20911", 0, 1, "P")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NAMESRV_ADDR", "")
	test := newProc(t, "test", "--cluster-test", "--product-env-name", "prod", "--production-namesrv-domain", prod.HTTPAddr)
	test.start()
	test.waitReady()
	route, err := c.GetRoute(ctx, test.ClientAddr, "P")
	if err != nil || !routesTo(route, "broker-prod", "127.0.0.1:20911") {
		t.Fatalf("route of P through the address service: %+v, %v", route, err)
	}
}

// waitStopped waits until every thread of p is stopped: kill returns
// before a loaded machine has stopped them, and a thread still running
// answers what the test sends it.
func waitStopped(t *testing.T, p *proc) {
	t.Helper()
	poll.For(t, 10*time.Second, p.ID+" stopped", func() bool {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", p.Pid()))
		if err != nil || len(tasks) == 0 {
			return false
		}
		for _, task := range tasks {
			stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", p.Pid(), task.Name()))
			// The state follows the parenthesized command name.
			_, rest, ok := strings.Cut(string(stat), ") ")
			if err != nil || !ok || !strings.HasPrefix(rest, "T") {
				return false
			}
		}
		return true
	})
}
