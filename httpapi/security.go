package httpapi

import (
	"cmp"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/raftns/raftns/cluster"
)

// Options are the admin port's defences. The zero value is what New
// starts with: no token, plain HTTP, the default limits.
type Options struct {
	// Token, when set, must be presented as "Authorization: Bearer <token>"
	// on every mutating endpoint (peers, leader transfer, snapshot save and
	// restore); reads and probes stay open unless ReadsNeedToken.
	Token string
	// TLS, when set, serves HTTPS, and followers proxy to the leader over
	// HTTPS, trusting the system roots plus ProxyRoots.
	TLS        *tls.Config
	ProxyRoots *x509.CertPool
	// MaxConns caps open connections. At the cap a new connection takes
	// the place of an idle, unread or anonymous one (connGuard); it waits
	// in the accept backlog only while every slot serves a probe or a
	// token-bearing request.
	MaxConns int
	// WatchAnonymous and WatchAnonymousPerAddr bound the watchers that
	// present no token, in total and per remote IP address (0: the
	// defaults).
	WatchAnonymous, WatchAnonymousPerAddr int
	// StreamWriteTimeout closes a watch stream whose client has not taken
	// an event (or keep-alive) within it (0: the default).
	StreamWriteTimeout time.Duration
	// ReadsNeedToken makes every read of the state (KV, routes, the change
	// feed, the audit trail, events, brokers, the status page) need the
	// token; probes, /metrics, /v1/status, GET /v1/peers and the address
	// service stay open. Set with --acl-mode all.
	ReadsNeedToken bool
	// TrustedProxies are the HTTP proxies in front of the admin port whose
	// X-Forwarded-For names the caller (clientAddr); none by default.
	TrustedProxies []netip.Prefix
	// MaxRestoreSize caps an uploaded snapshot.
	MaxRestoreSize int64
	// SpoolDir is where an uploaded snapshot is spooled before it is
	// checked and installed (the data dir).
	SpoolDir string
	// HeaderTimeout bounds receiving a request's headers; 0 means 10 s.
	HeaderTimeout time.Duration
	// Profiling serves the Go profiler under /debug/pprof/, guarded as the
	// mutating endpoints are (it reveals the process and costs CPU).
	Profiling bool
	// Exposed says the admin address is not loopback. Without a Token,
	// mutating endpoints then answer only requests from loopback.
	Exposed bool
	// AuditQueryRate is how many GET /v1/audit queries a second this
	// member answers to callers without the admin token; more wait their
	// turn. 0 means DefaultAuditQueryRate.
	AuditQueryRate int
}

// Admin HTTP limits: headers must arrive within headerTimeout and be at
// most maxHeaderBytes; a request body within readTimeout (snapshot uploads
// get restoreTimeout); idle keep-alive connections close after idleTimeout.
const (
	headerTimeout   = 10 * time.Second
	readTimeout     = 30 * time.Second
	writeTimeout    = 60 * time.Second
	idleTimeout     = 60 * time.Second
	restoreTimeout  = 10 * time.Minute
	maxHeaderBytes  = 16 << 10
	defaultMaxConns = 64
	// DefaultMaxRestoreSize caps an uploaded snapshot when unset.
	DefaultMaxRestoreSize = 1 << 30
)

// LoadTLS reads the admin port's certificate and key; the certificate
// file's chain is also trusted when followers proxy to the leader.
func LoadTLS(certFile, keyFile string) (*tls.Config, *x509.CertPool, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, nil, fmt.Errorf("admin TLS: load certificate %s and key %s: %w", certFile, keyFile, err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if pem, err := os.ReadFile(certFile); err == nil {
		pool.AppendCertsFromPEM(pem)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, pool, nil
}

// Configure sets the admin port's defences; call before Serve.
func (s *Server) Configure(o Options) {
	o.MaxConns = cmp.Or(max(o.MaxConns, 0), defaultMaxConns)
	o.MaxRestoreSize = cmp.Or(max(o.MaxRestoreSize, 0), DefaultMaxRestoreSize)
	o.HeaderTimeout = cmp.Or(max(o.HeaderTimeout, 0), headerTimeout)
	o.WatchAnonymous = cmp.Or(max(o.WatchAnonymous, 0), DefaultWatchAnonymous)
	o.WatchAnonymousPerAddr = cmp.Or(max(o.WatchAnonymousPerAddr, 0), DefaultWatchAnonymousPerAddr)
	o.StreamWriteTimeout = cmp.Or(max(o.StreamWriteTimeout, 0), DefaultStreamWriteTimeout)
	s.opts = o
	s.auditQueries.configure(o.AuditQueryRate)
	s.conns = newConnGuard(o.MaxConns)
	s.watchers = newWatchBudget(o.WatchAnonymous, o.WatchAnonymousPerAddr)
	if o.Profiling {
		s.serveProfiler()
	}
	s.srv.TLSConfig = o.TLS
	s.srv.ReadHeaderTimeout = o.HeaderTimeout
	if o.TLS != nil {
		s.proxyScheme = "https"
		s.proxyTransport = &http.Transport{
			DialContext:           proxyTransport.DialContext,
			ResponseHeaderTimeout: proxyTransport.ResponseHeaderTimeout,
			TLSClientConfig:       &tls.Config{RootCAs: o.ProxyRoots, MinVersion: tls.VersionTLS12},
		}
	}
}

// limitedListener applies the connection guard and TLS to ln.
func (s *Server) limitedListener(ln net.Listener) net.Listener {
	ln = &guardListener{Listener: ln, g: s.conns}
	if s.opts.TLS != nil {
		ln = tls.NewListener(ln, s.opts.TLS)
	}
	return ln
}

// authorized wraps a mutating endpoint: with a token configured, the
// request must carry it, or it is answered 401 and counted; without one,
// an exposed admin port answers such requests only from loopback (403).
func (s *Server) authorized(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opts.Token == "" && s.opts.Exposed && !fromLoopback(r) {
			s.unauthorized.Add(1)
			s.logger.Warn("admin request from another machine refused: no admin token is configured", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr)
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "this member has no admin token (--http-token-file), so this endpoint answers only requests from loopback"})
			return
		}
		if s.opts.Token != "" && !bearerMatches(r.Header.Get("Authorization"), s.opts.Token) {
			s.unauthorized.Add(1)
			s.logger.Warn("admin request without a valid token refused", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr)
			w.Header().Set("WWW-Authenticate", `Bearer realm="raftns"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "this endpoint needs the admin token: Authorization: Bearer <token> (raftnsctl --token-file or RAFTNS_TOKEN)"})
			return
		}
		h(w, r.WithContext(cluster.WithCaller(r.Context(), s.callerOf(r))))
	}
}

// fromLoopback reports a request whose peer is this machine.
func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bearerMatches compares the presented bearer token in constant time.
func bearerMatches(header, token string) bool {
	got, ok := strings.CutPrefix(header, "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) == 1
}

// Unauthorized returns how many admin requests were refused for a missing
// or wrong token.
func (s *Server) Unauthorized() uint64 { return s.unauthorized.Load() }

// restoreGate lets one snapshot restore run at a time.
type restoreGate struct{ busy atomic.Bool }

func (g *restoreGate) enter() bool { return g.busy.CompareAndSwap(false, true) }
func (g *restoreGate) leave()      { g.busy.Store(false) }
