package httpapi

import (
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the anonymous watchers' budget and of a stream's write
// deadline.
const (
	DefaultWatchAnonymous        = 32
	DefaultWatchAnonymousPerAddr = 8
	DefaultStreamWriteTimeout    = 30 * time.Second
)

// watchBudget bounds the watchers (GET /v1/watch, blocking or streaming)
// that present no admin token: in total and per remote IP address.
// Token-bearing watchers are the operator's and are not counted.
type watchBudget struct {
	total, perAddr int

	mu      sync.Mutex
	n       int
	perIP   map[string]int
	refused atomic.Uint64
}

func newWatchBudget(total, perAddr int) *watchBudget {
	return &watchBudget{total: total, perAddr: perAddr, perIP: map[string]int{}}
}

// take counts a watcher from remote; false when the budget is spent.
func (b *watchBudget) take(remote string) bool {
	ip := remoteIP(remote)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n >= b.total || b.perIP[ip] >= b.perAddr {
		b.refused.Add(1)
		return false
	}
	b.n++
	b.perIP[ip]++
	return true
}

// give returns the watcher take counted.
func (b *watchBudget) give(remote string) {
	ip := remoteIP(remote)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n--
	if b.perIP[ip]--; b.perIP[ip] <= 0 {
		delete(b.perIP, ip)
	}
}

// inUse is how many anonymous watchers are counted now.
func (b *watchBudget) inUse() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// remoteIP is the host part of a request's remote address.
func remoteIP(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		return remote
	}
	return host
}

// admitWatcher counts an anonymous watcher, or answers 429 and returns
// false; done releases what it counted.
func (s *Server) admitWatcher(w http.ResponseWriter, r *http.Request) (done func(), ok bool) {
	if s.hasToken(r) {
		return func() {}, true
	}
	if !s.watchers.take(r.RemoteAddr) {
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": "too many watchers without the admin token " +
			"(in total --watch-max-anonymous, per address --watch-max-anonymous-per-addr); present the admin token or try later"})
		return nil, false
	}
	return func() { s.watchers.give(r.RemoteAddr) }, true
}
