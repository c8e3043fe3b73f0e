package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster/clustertest"
)

// Audit queries without the token are paced by AuditQueryRate: however
// fast a client asks, at most the burst plus the rate times the time
// taken are answered, the rest wait or are told to come back; queries
// with the token are not queued.
func TestHTTP_AuditQueriesArePacedUnlessTheyCarryTheToken(t *testing.T) {
	const token = "audit-limit-test-token-0123456789"
	ms := clustertest.Start(t, 1, nil)
	s := New(ms.Leader(), prometheus.NewRegistry(), nil)
	s.Configure(Options{Token: token, AuditQueryRate: 1})
	ask := func(withToken bool) int {
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/v1/audit?who=nobody", nil)
		if withToken {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		return rec.Code
	}
	start := time.Now()
	answered, refused := 0, 0
	for range 6 {
		switch code := ask(false); code {
		case http.StatusOK:
			answered++
		case http.StatusServiceUnavailable:
			refused++
		default:
			t.Fatalf("audit query answered %d", code)
		}
	}
	if limit := 1 + int(time.Since(start).Seconds()); answered > limit || refused == 0 {
		t.Fatalf("%d queries answered and %d refused; at most %d may be answered", answered, refused, limit)
	}
	for range 6 {
		if code := ask(true); code != http.StatusOK {
			t.Fatalf("audit query with the token answered %d", code)
		}
	}
}
