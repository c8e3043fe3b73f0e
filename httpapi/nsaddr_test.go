package httpapi

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/internal/poll"
)

// javaParse reads an answer as RocketMQ's Java DefaultTopAddressing and
// the list update do: the body trimmed and cut at the first line break,
// then split on ';'.
func javaParse(body string) []string {
	s := strings.TrimSpace(body)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return strings.Split(s, ";")
}

// goParse reads an answer as rocketmq-client-go's HttpResolver does.
func goParse(body string) []string { return strings.Split(strings.TrimSpace(body), ";") }

func TestAddressService_EveryMemberAnswersTheListBothClientsParse(t *testing.T) {
	ms := clustertest.Start(t, 3, func(c *cluster.Config) { c.ClientAddr = "127.0.0.1:1000" + c.ID[1:] })
	want := "127.0.0.1:10001;127.0.0.1:10002;127.0.0.1:10003"
	for _, n := range ms.Running() {
		h := New(n, NewMetrics(n).Registry, nil).Handler()
		poll.For(t, 10*time.Second, n.ID()+" to answer the three members", func() bool {
			code, body := get(t, h, "/rocketmq/nsaddr")
			return code == http.StatusOK && body == want
		})
		for _, path := range []string{"/rocketmq/nsaddr", "/rocketmq/nsaddr-unit1?nofix=1", "/rocketmq/other?x=1&y=2"} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			body := rec.Body.String()
			if rec.Code != http.StatusOK || body != want || strings.ContainsAny(body, " \t\r\n") || strings.HasSuffix(body, ";") {
				t.Fatalf("%s %s = %d %q, want 200 %q", n.ID(), path, rec.Code, body, want)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
				t.Fatalf("content type %q", ct)
			}
			for name, parsed := range map[string][]string{"java": javaParse(body), "go": goParse(body)} {
				if strings.Join(parsed, ",") != "127.0.0.1:10001,127.0.0.1:10002,127.0.0.1:10003" {
					t.Fatalf("%s parser reads %q as %q", name, body, parsed)
				}
			}
		}
	}
}

// fixedLister answers a fixed list or error and counts the calls.
type fixedLister struct {
	addrs []string
	err   error
	calls atomic.Int32
}

func (f *fixedLister) ClientAddressesFor(string) ([]string, error) {
	f.calls.Add(1)
	return f.addrs, f.err
}

func TestAddressService_RefusalsAndBounds(t *testing.T) {
	down := &fixedLister{err: errors.New("cluster: member not ready: no contact with a leader yet")}
	h := NewAddressServer(down, 0, nil).Handler()
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{http.MethodGet, "/rocketmq/nsaddr", http.StatusServiceUnavailable},
		{http.MethodHead, "/rocketmq/nsaddr", http.StatusServiceUnavailable},
		{http.MethodPost, "/rocketmq/nsaddr", http.StatusMethodNotAllowed},
		{http.MethodDelete, "/rocketmq/nsaddr", http.StatusMethodNotAllowed},
		{http.MethodGet, "/rocketmq/" + strings.Repeat("a", 129), http.StatusNotFound},
		{http.MethodGet, "/rocketmq/bad%20name", http.StatusNotFound},
		{http.MethodGet, "/v1/status", http.StatusNotFound},
		{http.MethodGet, "/rocketmq/", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != tc.want {
			t.Errorf("%s %s = %d %q, want %d", tc.method, tc.path, rec.Code, rec.Body.String(), tc.want)
		}
	}
	// A burst of requests reads the member's list once per answer period.
	up := &fixedLister{addrs: []string{"10.0.0.1:9876"}}
	h = NewAddressServer(up, 0, nil).Handler()
	for range 200 {
		if code, body := get(t, h, "/rocketmq/nsaddr"); code != http.StatusOK || body != "10.0.0.1:9876" {
			t.Fatalf("answer %d %q", code, body)
		}
	}
	if n := up.calls.Load(); n > 5 {
		t.Fatalf("200 requests read the list %d times", n)
	}
}

func TestAddressService_UnauthenticatedWhileMutationsNeedTheToken(t *testing.T) {
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	s.Configure(Options{Token: "s3cret-token", Exposed: true})
	h := s.Handler()
	if code, body := get(t, h, "/rocketmq/nsaddr"); code != http.StatusOK || body != "127.0.0.1:9876" {
		t.Fatalf("address service with a token configured = %d %q", code, body)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, adminRequest(http.MethodDelete, "/v1/peers/solo?drain=0s&force=true", nil))
	if rec.Code != http.StatusUnauthorized {
		t.Fatalf("removal without the token = %d", rec.Code)
	}
	if !node.IsLeader() || len(node.FSM().Members()) != 1 {
		t.Fatal("the refused removal changed the member")
	}
	// Over TLS the admin port does not serve it: callers build http:// URLs.
	s.Configure(Options{Token: "s3cret-token", TLS: &tls.Config{MinVersion: tls.VersionTLS12}})
	if code, _ := get(t, s.Handler(), "/rocketmq/nsaddr"); code != http.StatusNotFound {
		t.Fatalf("address service on a TLS admin port = %d", code)
	}
}

func TestAddressService_OwnListenerIsBounded(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewAddressServer(&fixedLister{addrs: []string{"10.0.0.1:9876", "10.0.0.2:9876"}}, 1, nil)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	url := "http://" + ln.Addr().String() + "/rocketmq/nsaddr"
	client := &http.Client{Timeout: 500 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}
	fetch := func() (string, error) {
		resp, err := client.Get(url)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.Status + " " + string(body), err
	}
	if got, err := fetch(); err != nil || got != "200 OK 10.0.0.1:9876;10.0.0.2:9876" {
		t.Fatalf("answer %q, %v", got, err)
	}
	// With a limit of one connection, a caller that holds one open keeps
	// the next waiting, until it lets go.
	hold, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if got, err := fetch(); err == nil {
		t.Fatalf("a second connection was served while the limit was taken: %q", got)
	}
	hold.Close()
	poll.For(t, 5*time.Second, "an answer once the held connection closed", func() bool {
		_, err := fetch()
		return err == nil
	})
}
