package httpapi

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/events/watch"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
)

const guardToken = "0123456789abcdef-token"

// guardedServer serves one member's admin port, with watches, on loopback.
func guardedServer(t *testing.T, o Options) (*Server, string, *watch.Hub) {
	t.Helper()
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	hub := watch.NewHub(watch.Config{}, node.FSM().AppliedIndex())
	t.Cleanup(hub.Close)
	s.EnableWatch(hub)
	s.Configure(o)
	return s, serveHTTP(t, s), hub
}

// openStream opens GET /v1/watch?stream=true on a connection of its own
// (with the token when one is given) and returns it with the answer's
// status; the caller reads the rest or leaves it unread.
func openStream(t *testing.T, d *net.Dialer, addr, token string) (net.Conn, int) {
	t.Helper()
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	fmt.Fprintf(c, "GET /v1/watch?stream=true HTTP/1.1\r\nHost: %s\r\n%s\r\n", addr, auth)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("watch stream: %v", err)
	}
	_ = c.SetReadDeadline(time.Time{})
	return c, resp.StatusCode
}

// freshGet sends one request on a new connection, as a probe does.
func freshGet(path, token string) (int, error) {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequest(http.MethodGet, path, nil)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func TestConnGuard_ProbesAndTokenCallsGetInPastWatchersAndIdleConnections(t *testing.T) {
	s, addr, _ := guardedServer(t, Options{MaxConns: 6, Token: guardToken, WatchAnonymous: 100, WatchAnonymousPerAddr: 100})
	var d net.Dialer
	for range 4 {
		if _, code := openStream(t, &d, addr, ""); code != http.StatusOK {
			t.Fatalf("anonymous watch stream: %d", code)
		}
	}
	// Silent connections (nothing sent) and idle keep-alive ones.
	for range 4 {
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
	for i := range 3 {
		for _, path := range []string{"/livez", "/readyz"} {
			if code, err := freshGet("http://"+addr+path, ""); err != nil || code != http.StatusOK {
				t.Fatalf("round %d: %s = %d %v with the port full of watchers and idle connections", i, path, code, err)
			}
		}
		if code, err := freshGet("http://"+addr+"/v1/kv/ns/missing", guardToken); err != nil || code != http.StatusNotFound {
			t.Fatalf("round %d: token-bearing read = %d %v", i, code, err)
		}
	}
	if open := s.conns.open(); open > 6 {
		t.Fatalf("%d connections open, limit 6", open)
	}
	if s.conns.reclaimed.Load() == 0 {
		t.Fatal("no connection was reclaimed, yet more than the limit were opened")
	}
}

func TestConnGuard_NeverReclaimsAConnectionServingTheOperator(t *testing.T) {
	s, addr, _ := guardedServer(t, Options{MaxConns: 2, Token: guardToken})
	var d net.Dialer
	first, code := openStream(t, &d, addr, guardToken)
	if code != http.StatusOK {
		t.Fatalf("token-bearing stream: %d", code)
	}
	if _, code := openStream(t, &d, addr, guardToken); code != http.StatusOK {
		t.Fatalf("token-bearing stream: %d", code)
	}
	poll.For(t, 10*time.Second, "two privileged connections", func() bool {
		s.conns.mu.Lock()
		defer s.conns.mu.Unlock()
		n := 0
		for c := range s.conns.conns {
			if c.class == classPrivileged {
				n++
			}
		}
		return n == 2
	})
	client := &http.Client{Timeout: 300 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}
	if _, err := client.Get("http://" + addr + "/livez"); err == nil {
		t.Fatal("a third connection was served by taking an operator's slot")
	}
	if s.conns.reclaimed.Load() != 0 {
		t.Fatalf("%d operator connections reclaimed", s.conns.reclaimed.Load())
	}
	first.Close()
	if code, err := freshGet("http://"+addr+"/livez", ""); err != nil || code != http.StatusOK {
		t.Fatalf("after an operator's stream closed: %d %v", code, err)
	}
}

func TestWatchBudget_BoundsAnonymousWatchersInTotalAndPerAddress(t *testing.T) {
	b := newWatchBudget(3, 2)
	if !b.take("192.0.2.1:1") || !b.take("192.0.2.1:2") {
		t.Fatal("first two from one address refused")
	}
	if b.take("192.0.2.1:3") {
		t.Fatal("a third from one address admitted past the per-address bound")
	}
	if !b.take("192.0.2.2:1") {
		t.Fatal("another address refused below the total")
	}
	if b.take("192.0.2.3:1") {
		t.Fatal("admitted past the total")
	}
	b.give("192.0.2.1:1")
	if !b.take("192.0.2.3:1") {
		t.Fatal("refused after one was given back")
	}
	if b.inUse() != 3 || b.refused.Load() != 2 {
		t.Fatalf("in use %d refused %d, want 3 and 2", b.inUse(), b.refused.Load())
	}
}

func TestHTTP_AnonymousWatchersBeyondTheirBudgetAreRefusedTokenOnesAreNot(t *testing.T) {
	_, addr, _ := guardedServer(t, Options{Token: guardToken, WatchAnonymous: 10, WatchAnonymousPerAddr: 2})
	var d net.Dialer
	for range 2 {
		if _, code := openStream(t, &d, addr, ""); code != http.StatusOK {
			t.Fatalf("anonymous stream within the budget: %d", code)
		}
	}
	if _, code := openStream(t, &d, addr, ""); code != http.StatusTooManyRequests {
		t.Fatalf("third anonymous stream from one address: %d, want 429", code)
	}
	if code, err := freshGet("http://"+addr+"/v1/watch?wait=1ms", ""); err != nil || code != http.StatusTooManyRequests {
		t.Fatalf("anonymous blocking watch past the budget: %d %v, want 429", code, err)
	}
	if _, code := openStream(t, &d, addr, guardToken); code != http.StatusOK {
		t.Fatalf("token-bearing stream: %d", code)
	}
}

func TestHTTP_StreamOfAClientThatStopsReadingIsClosed(t *testing.T) {
	s, addr, hub := guardedServer(t, Options{StreamWriteTimeout: 200 * time.Millisecond})
	c, code := openStream(t, launch.SmallReceiveDialer(4096), addr, "")
	if code != http.StatusOK {
		t.Fatalf("stream: %d", code)
	}
	topics := make([]string, 64)
	for i := range topics {
		topics[i] = fmt.Sprintf("topic-%03d-%s", i, strings.Repeat("x", 100))
	}
	index := hub.Index()
	// Changes keep coming while the client reads nothing; the member must
	// give up on the stream once its socket takes no more.
	poll.For(t, 30*time.Second, "the stuck stream's watcher to go", func() bool {
		for range 8 {
			index++
			hub.Publish(watch.Change{Index: index, Kinds: watch.Route, Topics: topics})
		}
		return hub.Watchers() == 0
	})
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, c); err != nil && !isReset(err) {
		t.Fatalf("reading the closed stream: %v, want its end", err)
	}
	if s.stuckStreams.Load() != 1 {
		t.Fatalf("stuck streams counted %d, want 1", s.stuckStreams.Load())
	}
}

// isReset reports a connection the other side reset.
func isReset(err error) bool {
	return err != nil && strings.Contains(err.Error(), "connection reset")
}
