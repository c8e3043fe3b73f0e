package httpapi

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// DefaultAuditQueryRate is how many GET /v1/audit queries a second a
// member answers when Options.AuditQueryRate is 0.
const DefaultAuditQueryRate = 20

// auditQueryWait is the longest a query waits for its turn before it is
// answered 503.
const auditQueryWait = 5 * time.Second

// auditLimiter paces audit queries: each takes a turn of a token bucket
// (burst: one second's worth), waiting for it, so however many clients ask
// in closed loops the member answers at most the configured rate and
// spends on them a bounded share of its CPU.
type auditLimiter struct{ lim atomic.Pointer[rate.Limiter] }

// configure sets the rate (0: DefaultAuditQueryRate).
func (a *auditLimiter) configure(perSecond int) { a.lim.Store(newAuditLimiter(perSecond)) }

// limiter returns the configured limiter, the default one if none is.
func (a *auditLimiter) limiter() *rate.Limiter {
	a.lim.CompareAndSwap(nil, newAuditLimiter(0))
	return a.lim.Load()
}

func newAuditLimiter(perSecond int) *rate.Limiter {
	if perSecond <= 0 {
		perSecond = DefaultAuditQueryRate
	}
	return rate.NewLimiter(rate.Limit(perSecond), perSecond)
}

// turn waits for r's turn; false, with the answer written, when it does
// not come within auditQueryWait. A request carrying the admin token is
// not queued behind anonymous readers.
func (s *Server) auditTurn(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Token != "" && bearerMatches(r.Header.Get("Authorization"), s.opts.Token) {
		return true
	}
	lim := s.auditQueries.limiter()
	ctx, cancel := context.WithTimeout(r.Context(), auditQueryWait)
	defer cancel()
	if err := lim.Wait(ctx); err != nil {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "too many audit queries; try again"})
		return false
	}
	return true
}
