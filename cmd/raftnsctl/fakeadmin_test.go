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

// fakeAdmin imitates a member's admin API: it records every request and
// answers each with one canned status and body.
type fakeAdmin struct {
	srv    *httptest.Server
	status int
	answer []byte

	mu   sync.Mutex
	reqs []recordedRequest
}

func newFakeAdmin(t *testing.T, status int, answer string) *fakeAdmin {
	t.Helper()
	f := &fakeAdmin{status: status, answer: []byte(answer)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAdmin) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.reqs = append(f.reqs, recordedRequest{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
		ContentType: r.Header.Get("Content-Type"), Body: body})
	f.mu.Unlock()
	switch {
	case strings.HasPrefix(string(f.answer), "{") || strings.HasPrefix(string(f.answer), "["):
		w.Header().Set("Content-Type", "application/json")
	case f.status == http.StatusOK:
		w.Header().Set("Content-Type", "application/octet-stream")
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(f.status)
	w.Write(f.answer)
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
