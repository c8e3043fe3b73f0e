package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/raftns/raftns/cluster/clustertest"
)

func TestHTTP_ProfilerIsOffByDefaultAndGuardedWhenOn(t *testing.T) {
	node := clustertest.Single(t, nil)
	get := func(s *Server, auth string) int {
		req := httptest.NewRequest(http.MethodGet, "/debug/pprof/cmdline", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code
	}
	off := New(node, NewMetrics(node).Registry, nil)
	off.Configure(Options{Token: "s3cret-token-long"})
	if code := get(off, "Bearer s3cret-token-long"); code != http.StatusNotFound {
		t.Fatalf("profiler not switched on: status %d, want 404", code)
	}
	on := New(node, NewMetrics(node).Registry, nil)
	on.Configure(Options{Token: "s3cret-token-long", Profiling: true})
	if code := get(on, ""); code != http.StatusUnauthorized {
		t.Fatalf("profiler without the token: status %d, want 401", code)
	}
	if code := get(on, "Bearer s3cret-token-long"); code != http.StatusOK {
		t.Fatalf("profiler with the token: status %d, want 200", code)
	}
	// Configuring again does not register the endpoints twice (which
	// would panic).
	on.Configure(Options{Token: "s3cret-token-long", Profiling: true})
}
