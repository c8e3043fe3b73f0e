package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// drainingAdmin answers a removal with a drain, then lists the member in
// the configuration for the first listed reads and no longer after; with
// gone set, a read answers 410 as a removed member's does.
func drainingAdmin(t *testing.T, listed int32, gone bool) string {
	t.Helper()
	var reads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodDelete && r.URL.Path == "/v1/peers/ns-3":
			w.Write([]byte(`{"result":"draining","drainMillis":1500}`))
		case r.Method == http.MethodGet && r.URL.Path == "/v1/peers" && reads.Add(1) <= listed:
			w.Write([]byte(`[{"id":"ns-3","address":"10.0.0.3:9866","membership":"draining","drainMillis":1500}]`))
		case r.Method == http.MethodGet && r.URL.Path == "/v1/peers" && gone:
			w.WriteHeader(http.StatusGone)
			w.Write([]byte(`{"error":"cluster: removed from the cluster"}`))
		case r.Method == http.MethodGet && r.URL.Path == "/v1/peers":
			w.Write([]byte(`[{"id":"ns-1","address":"10.0.0.1:9866"}]`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

func TestPeersRemove_WaitsUntilTheDrainedMemberIsOut(t *testing.T) {
	r := ctl(t, "--addr", drainingAdmin(t, 2, false), "peers", "remove", "ns-3").mustSucceed(t)
	want := "peer ns-3: draining for 1.5s: no longer listed by the address service, still serving; removed when the drain is over\n" +
		"peer ns-3: removed\n"
	if r.stdout != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
}

func TestPeersRemove_AskingTheRemovedMemberItselfEndsTheWait(t *testing.T) {
	r := ctl(t, "--addr", drainingAdmin(t, 1, true), "peers", "remove", "ns-3").mustSucceed(t)
	if !strings.HasSuffix(r.stdout, "peer ns-3: removed\n") {
		t.Fatalf("stdout:\n%s", r.stdout)
	}
}

func TestPeersRemove_NegativeDrainIsAUsageError(t *testing.T) {
	ctl(t, "--addr", "127.0.0.1:1", "peers", "remove", "--drain", "-1s", "ns-3").mustFail(t, 2, "--drain -1s: must not be negative")
}
