package production

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// fakeProduction is a name server that knows the routes in topics and
// counts the route queries it answers.
type fakeProduction struct {
	addr    string
	queries atomic.Int32
	// hold, when set, is waited on before answering topic "slow".
	hold chan struct{}
}

func startProduction(t testing.TB, topics map[string]string) *fakeProduction {
	return startHeldProduction(t, topics, nil)
}

// startHeldProduction is startProduction whose answer for "slow" waits
// for hold to close.
func startHeldProduction(t testing.TB, topics map[string]string, hold chan struct{}) *fakeProduction {
	t.Helper()
	fp := &fakeProduction{hold: hold}
	rs := remoting.NewServer(remoting.DefaultServerConfig(), remoting.HandlerFunc(
		func(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
			fp.queries.Add(1)
			topic := req.ExtFields["topic"]
			if topic == "slow" && fp.hold != nil {
				<-fp.hold
			}
			broker, ok := topics[topic]
			if !ok {
				return remoting.NewResponse(req, remoting.TopicNotExist, "No topic route info in name server for the topic: "+topic)
			}
			resp := remoting.NewResponse(req, remoting.Success, "")
			resp.Body = body.EncodeRoute(routeOf(broker), body.Standard)
			return resp
		}), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fp.addr = ln.Addr().String()
	go rs.Serve(ln)
	t.Cleanup(func() { rs.Close() })
	return fp
}

func routeOf(broker string) *state.TopicRouteData {
	return &state.TopicRouteData{
		QueueDatas:        []state.QueueData{{BrokerName: broker, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
		BrokerDatas:       []state.BrokerData{{Cluster: "prod", BrokerName: broker, BrokerAddrs: map[int64]string{0: "127.0.0.1:10911"}}},
		FilterServerTable: map[string][]string{},
	}
}

// deadAddr is a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	addr, err := launch.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

func newLookup(t *testing.T, cfg Config) *Lookup {
	t.Helper()
	l := New(cfg)
	t.Cleanup(func() { l.Close() })
	return l
}

func fixed(src Source) func() Source { return func() Source { return src } }

func ctxOf(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestRoute_FoundNotFoundAndCached(t *testing.T) {
	fp := startProduction(t, map[string]string{"P": "broker-prod"})
	l := newLookup(t, Config{Source: fixed(Source{Addrs: fp.addr})})
	now := time.Now()
	l.cache.now = func() time.Time { return now }

	route, found, err := l.Route(ctxOf(t), "P")
	if err != nil || !found {
		t.Fatalf("Route(P) = found %v, err %v", found, err)
	}
	if got := route.BrokerDatas[0].BrokerName; got != "broker-prod" {
		t.Fatalf("broker %q, want broker-prod", got)
	}
	if _, found, err := l.Route(ctxOf(t), "nope"); err != nil || found {
		t.Fatalf("Route(nope) = found %v, err %v; want not found", found, err)
	}
	// Both answers are reused within the TTL, and a caller's change to a
	// route does not reach the next caller.
	route.BrokerDatas[0].BrokerName = "changed"
	again, _, _ := l.Route(ctxOf(t), "P")
	l.Route(ctxOf(t), "nope")
	if q := fp.queries.Load(); q != 2 {
		t.Fatalf("production answered %d queries, want 2 (the rest from the cache)", q)
	}
	if again.BrokerDatas[0].BrokerName != "broker-prod" {
		t.Fatal("a caller's change to a route reached the cache")
	}
	now = now.Add(DefaultCacheTTL)
	l.Route(ctxOf(t), "P")
	if q := fp.queries.Load(); q != 3 {
		t.Fatalf("production answered %d queries after the TTL, want 3", q)
	}
}

func TestRoute_SkipsADeadAddressAndNamesThemAllWhenNoneAnswers(t *testing.T) {
	fp := startProduction(t, map[string]string{"P": "broker-prod"})
	dead := deadAddr(t)
	l := newLookup(t, Config{Source: fixed(Source{Addrs: dead + ";" + fp.addr, EnvName: "prod"})})
	for range 3 { // every starting address
		l.cache = newAnswerCache(time.Nanosecond, 1, time.Now)
		if _, found, err := l.Route(ctxOf(t), "P"); err != nil || !found {
			t.Fatalf("Route(P) with one dead address = found %v, err %v", found, err)
		}
	}
	l2 := newLookup(t, Config{Source: fixed(Source{Addrs: dead, EnvName: "prod"}), Timeout: 500 * time.Millisecond})
	_, _, err := l2.Route(ctxOf(t), "P")
	if err == nil || !strings.Contains(err.Error(), "unreachable") || !strings.Contains(err.Error(), dead) ||
		!strings.Contains(err.Error(), `"prod"`) {
		t.Fatalf("err = %v, want unreachable naming the environment and %s", err, dead)
	}
}

func TestRoute_NotConfigured(t *testing.T) {
	l := newLookup(t, Config{Source: fixed(Source{EnvName: "center"})})
	if _, _, err := l.Route(ctxOf(t), "P"); !errors.Is(err, ErrNotConfigured) {
		t.Fatalf("err = %v, want ErrNotConfigured", err)
	}
}

func TestRoute_BusyBeyondTheConcurrencyLimitAndOneLookupPerTopic(t *testing.T) {
	fp := startHeldProduction(t, map[string]string{"slow": "b", "P": "broker-prod"}, make(chan struct{}))
	l := newLookup(t, Config{Source: fixed(Source{Addrs: fp.addr}), MaxConcurrent: 1, Timeout: 20 * time.Second})
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := l.Route(ctxOf(t), "slow")
			errs <- err
		}()
	}
	// Wait until the one lookup of "slow" reached production.
	poll.For(t, 10*time.Second, "the lookup of slow reaching production", func() bool { return fp.queries.Load() > 0 })
	_, _, err := l.Route(ctxOf(t), "P")
	if !errors.Is(err, namesrv.ErrProductionBusy) {
		t.Fatalf("a second topic while one lookup runs: err = %v, want ErrProductionBusy", err)
	}
	close(fp.hold)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a shared lookup failed: %v", err)
		}
	}
	if q := fp.queries.Load(); q != 1 {
		t.Fatalf("production answered %d queries for 5 concurrent lookups of one topic, want 1", q)
	}
}

func TestRoute_AddressServiceWithTheUnit(t *testing.T) {
	fp := startProduction(t, map[string]string{"P": "broker-prod"})
	var asked atomic.Value
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Store(r.URL.RequestURI())
		w.Write([]byte(fp.addr + "\n"))
	}))
	t.Cleanup(as.Close)
	domain := strings.TrimPrefix(as.URL, "http://")
	l := newLookup(t, Config{Source: fixed(Source{Domain: domain, EnvName: "prod"})})
	if _, found, err := l.Route(ctxOf(t), "P"); err != nil || !found {
		t.Fatalf("Route(P) through the address service = found %v, err %v", found, err)
	}
	if got := asked.Load(); got != "/rocketmq/nsaddr-prod?nofix=1" {
		t.Fatalf("address service asked for %v, want /rocketmq/nsaddr-prod?nofix=1", got)
	}
}

func TestAddressURL(t *testing.T) {
	for _, tc := range []struct{ domain, sub, env, want string }{
		{"ns.example.com", "", "center", "http://ns.example.com:8080/rocketmq/nsaddr-center?nofix=1"},
		{"ns.example.com:9000", "sub", "prod", "http://ns.example.com:9000/rocketmq/sub-prod?nofix=1"},
		{"ns.example.com", "nsaddr", "", "http://ns.example.com:8080/rocketmq/nsaddr"},
	} {
		if got := addressURL(tc.domain, tc.sub, tc.env); got != tc.want {
			t.Errorf("addressURL(%q, %q, %q) = %s, want %s", tc.domain, tc.sub, tc.env, got, tc.want)
		}
	}
}

func TestAnswerCache_Bounded(t *testing.T) {
	now := time.Now()
	c := newAnswerCache(time.Second, 2, func() time.Time { return now })
	c.put("a", answer{})
	c.put("b", answer{})
	c.put("c", answer{})
	if _, ok := c.get("c"); ok {
		t.Fatal("a full cache of live answers took another")
	}
	now = now.Add(time.Second)
	c.put("c", answer{})
	if _, ok := c.get("c"); !ok || len(c.entries) != 1 {
		t.Fatalf("expired answers were not dropped for a new one: %d entries", len(c.entries))
	}
}
