package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// recordedRequest is what the fake admin API received.
type recordedRequest struct {
	Method, Path, Query, ContentType string
	Body                             []byte
}

// cannedAnswer is one answer of the fake admin API.
type cannedAnswer struct {
	status int
	body   []byte
}

// fakeAdmin imitates a member's admin API: it records every request and
// answers with the canned answer set for "METHOD PATH" by on, or else with
// the default one.
type fakeAdmin struct {
	srv *httptest.Server
	def cannedAnswer

	mu     sync.Mutex
	routes map[string]cannedAnswer
	reqs   []recordedRequest
}

func newFakeAdmin(t *testing.T, status int, answer string) *fakeAdmin {
	t.Helper()
	f := &fakeAdmin{def: cannedAnswer{status, []byte(answer)}, routes: map[string]cannedAnswer{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// on sets the answer to method and path.
func (f *fakeAdmin) on(method, path string, status int, answer string) *fakeAdmin {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.routes[method+" "+path] = cannedAnswer{status, []byte(answer)}
	return f
}

func (f *fakeAdmin) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, recordedRequest{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
		ContentType: r.Header.Get("Content-Type"), Body: body})
	ans, ok := f.routes[r.Method+" "+r.URL.EscapedPath()]
	f.mu.Unlock()
	if !ok {
		ans = f.def
	}
	switch {
	case strings.HasPrefix(string(ans.body), "{") || strings.HasPrefix(string(ans.body), "["):
		w.Header().Set("Content-Type", "application/json")
	case ans.status == http.StatusOK:
		w.Header().Set("Content-Type", "application/octet-stream")
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(ans.status)
	w.Write(ans.body)
}

// addr is the fake's HOST:PORT.
func (f *fakeAdmin) addr() string { return f.srv.Listener.Addr().String() }

// requests returns a copy of the requests received so far.
func (f *fakeAdmin) requests() []recordedRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recordedRequest(nil), f.reqs...)
}

// only returns the one request received, failing the test otherwise.
func (f *fakeAdmin) only(t *testing.T) recordedRequest {
	t.Helper()
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("fake admin API got %d requests, want 1: %+v", len(reqs), reqs)
	}
	return reqs[0]
}
