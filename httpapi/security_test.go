package httpapi

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster/clustertest"
)

func TestHTTP_MutatingEndpointsNeedTheToken(t *testing.T) {
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	s.Configure(Options{Token: "s3cret-token"})
	h := s.Handler()
	for _, tc := range []struct {
		name, method, path, auth string
		want                     int
	}{
		{"no token", http.MethodPost, "/v1/peers", "", http.StatusUnauthorized},
		{"wrong token", http.MethodPost, "/v1/peers", "Bearer nope", http.StatusUnauthorized},
		{"not bearer", http.MethodPost, "/v1/peers", "Basic czNjcmV0LXRva2Vu", http.StatusUnauthorized},
		{"remove without token", http.MethodDelete, "/v1/peers/solo", "", http.StatusUnauthorized},
		{"transfer without token", http.MethodPost, "/v1/leader/transfer", "", http.StatusUnauthorized},
		{"save without token", http.MethodGet, "/v1/snapshot", "", http.StatusUnauthorized},
		{"restore without token", http.MethodPost, "/v1/snapshot", "", http.StatusUnauthorized},
		// With the token the request reaches the handler, which refuses
		// the empty body on its own grounds.
		{"right token", http.MethodPost, "/v1/peers", "Bearer s3cret-token", http.StatusBadRequest},
		{"reads stay open", http.MethodGet, "/v1/peers", "", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, strings.NewReader("{}"))
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("%s %s = %d %s, want %d", tc.method, tc.path, rec.Code, rec.Body.String(), tc.want)
			}
		})
	}
	if got := s.Unauthorized(); got != 7 {
		t.Fatalf("unauthorized counter = %d, want 7", got)
	}
	if len(node.FSM().Members()) != 1 || !node.IsLeader() {
		t.Fatal("refused requests changed the membership or leadership")
	}
}

func TestHTTP_RestoreLimitsSizeAndConcurrency(t *testing.T) {
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	s.Configure(Options{MaxRestoreSize: 1024, SpoolDir: t.TempDir()})
	h := s.Handler()
	post := func(body string, chunked bool) *httptest.ResponseRecorder {
		req := adminRequest(http.MethodPost, "/v1/snapshot", strings.NewReader(body))
		if chunked {
			req.ContentLength = -1 // the size is learnt while reading
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	big := strings.Repeat("x", 4096)
	if rec := post(big, false); rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("announced oversize upload = %d %s", rec.Code, rec.Body.String())
	}
	if rec := post(big, true); rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("streamed oversize upload = %d %s", rec.Code, rec.Body.String())
	}
	if !s.restoring.enter() {
		t.Fatal("gate busy")
	}
	if rec := post("garbage", false); rec.Code != http.StatusConflict {
		t.Fatalf("restore during a restore = %d %s", rec.Code, rec.Body.String())
	}
	s.restoring.leave()
	if rec := post("garbage", false); rec.Code != http.StatusBadRequest {
		t.Fatalf("garbage after the restore = %d %s", rec.Code, rec.Body.String())
	}
}

func serveHTTP(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return ln.Addr().String()
}

func TestHTTP_HeaderLimit(t *testing.T) {
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	addr := serveHTTP(t, s)

	// Headers beyond the limit are refused.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "GET /livez HTTP/1.1\r\nHost: x\r\nX-Big: %s\r\n\r\n", strings.Repeat("a", 64<<10))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("oversized headers: %v %v", resp, err)
	}
	c.Close()

}

func TestHTTP_SlowHeaderSenderIsDisconnected(t *testing.T) {
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	s.Configure(Options{HeaderTimeout: 300 * time.Millisecond})
	addr := serveHTTP(t, s)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Half a request line, then nothing: the member must hang up rather
	// than wait for the rest.
	fmt.Fprint(c, "GET /livez HT")
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the admin server kept a connection whose headers never finished")
	}
}

func TestHTTP_ExposedWithoutTokenAnswersMutationsOnlyFromLoopback(t *testing.T) {
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	s.Configure(Options{Exposed: true})
	h := s.Handler()
	for _, tc := range []struct {
		remote string
		want   int
	}{{"10.1.2.3:5555", http.StatusForbidden}, {"127.0.0.1:5555", http.StatusBadRequest}, {"[::1]:5555", http.StatusBadRequest}} {
		req := adminRequest(http.MethodPost, "/v1/peers", strings.NewReader("{}"))
		req.RemoteAddr = tc.remote
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Fatalf("from %s: %d %s, want %d", tc.remote, rec.Code, rec.Body.String(), tc.want)
		}
	}
	if s.Unauthorized() != 1 {
		t.Fatalf("refusals counted = %d, want 1", s.Unauthorized())
	}
	get := httptest.NewRequest(http.MethodGet, "/v1/peers", nil)
	get.RemoteAddr = "10.1.2.3:5555"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, get)
	if rec.Code != http.StatusOK {
		t.Fatalf("reads from another machine: %d", rec.Code)
	}
}
