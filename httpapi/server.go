package httpapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/events/watch"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// Server is the admin HTTP server of one member.
type Server struct {
	node   *cluster.Node
	logger hclog.Logger
	mux    *http.ServeMux
	srv    *http.Server

	opts           Options
	unauthorized   atomic.Uint64
	restoring      restoreGate
	proxyScheme    string
	proxyTransport http.RoundTripper
	profilerOnce   sync.Once
	// watch serves GET /v1/watch once EnableWatch set it.
	watch *watch.Hub
	// auditQueries paces GET /v1/audit (auditlimit.go).
	auditQueries auditLimiter

	// conns holds the connection limit (Configure); watchers bounds the
	// watchers without a token.
	conns    *connGuard
	watchers *watchBudget
	// origins refuses cross-origin browser requests that change state.
	origins            http.CrossOriginProtection
	refusedCrossOrigin atomic.Uint64
	stuckStreams       atomic.Uint64
	// tickets vouch, on the leader, for requests followers proxy here;
	// ticketCall asks the leader for one.
	tickets    *proxyTickets
	ticketCall *cluster.LeaderCall[ticketRequest, ticketAnswer]
}

// New returns the admin server for node; metrics gathers what /metrics
// exposes.
func New(node *cluster.Node, metrics prometheus.Gatherer, logger hclog.Logger) *Server {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	s := &Server{node: node, logger: logger.Named("http"), mux: http.NewServeMux(), proxyScheme: "http", proxyTransport: proxyTransport}
	s.registerProxyTickets(node)
	s.mux.HandleFunc("GET /livez", s.livez)
	s.mux.HandleFunc("GET /readyz", s.readyz)
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(metrics, promhttp.HandlerOpts{}))
	s.mux.HandleFunc("GET /v1/status", s.status)
	s.mux.HandleFunc("GET /v1/peers", s.peers)
	s.mux.HandleFunc("GET /v1/kv/{namespace}/{key}", s.getKV)
	s.mux.HandleFunc("GET /v1/routes/{topic}", s.getRoute)
	s.mux.HandleFunc("GET /v1/audit", s.getAudit)
	s.installSettings()
	// The RocketMQ address service, unauthenticated like the reads above;
	// over TLS callers could not reach it (they build http:// URLs).
	addresses := &addressService{members: node}
	s.mux.HandleFunc(addressServicePattern, func(w http.ResponseWriter, r *http.Request) {
		if s.opts.TLS != nil {
			http.Error(w, "the address service is not served over TLS: give the member --address-service-addr", http.StatusNotFound)
			return
		}
		addresses.ServeHTTP(w, r)
	})
	// Membership and transfer run on any member, which passes them to the
	// leader over the cluster port; snapshots stream, so a follower proxies
	// them to the leader's admin address instead. Each needs the token when
	// one is configured.
	s.mux.HandleFunc("POST /v1/peers", s.authorized(s.anyMember(s.addPeer)))
	s.mux.HandleFunc("DELETE /v1/peers/{id}", s.authorized(s.anyMember(s.removePeer)))
	s.mux.HandleFunc("POST /v1/peers/{id}/promote", s.authorized(s.anyMember(s.suffrage(true))))
	s.mux.HandleFunc("POST /v1/peers/{id}/demote", s.authorized(s.anyMember(s.suffrage(false))))
	s.mux.HandleFunc("POST /v1/leader/transfer", s.authorized(s.anyMember(s.transferLeader)))
	s.mux.HandleFunc("GET /v1/snapshot", s.authorized(s.leaderOnly(s.saveSnapshot)))
	s.mux.HandleFunc("POST /v1/snapshot", s.authorized(s.leaderOnly(s.restoreSnapshot)))
	s.mux.HandleFunc("POST /v1/upgrade/finalize", s.authorized(s.leaderOnly(s.finalizeUpgrade)))
	s.srv = &http.Server{Handler: http.HandlerFunc(s.frontDoor), ConnContext: connContext,
		ConnState: func(c net.Conn, st http.ConnState) { s.conns.connState(c, st) }, ReadHeaderTimeout: headerTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes}
	s.Configure(Options{})
	return s
}

// Handler returns the HTTP handler, for tests.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.frontDoor) }

// Serve serves on ln until Shutdown, within the connection limit and over
// TLS when configured.
func (s *Server) Serve(ln net.Listener) error {
	err := s.srv.Serve(s.limitedListener(ln))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops the server, waiting for requests up to ctx.
func (s *Server) Shutdown(ctx context.Context) error { return s.srv.Shutdown(ctx) }

func (s *Server) livez(w http.ResponseWriter, _ *http.Request) {
	w.Write([]byte("ok\n"))
}

// readyz answers 200 while the member serves client reads, 503 with the
// reason otherwise.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	ready, reason := s.node.Ready()
	if !ready {
		http.Error(w, "not ready: "+reason, http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ready\n"))
}

func (s *Server) status(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.node.Status())
}

func (s *Server) peers(w http.ResponseWriter, r *http.Request) {
	peers, err := s.node.Peers(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, peers)
}

func (s *Server) addPeer(w http.ResponseWriter, r *http.Request) error {
	var req adminapi.AddPeer
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil || req.ID == "" || req.Address == "" {
		return badRequest("body must be {\"id\":…,\"address\":\"host:port\"}")
	}
	if _, _, err := net.SplitHostPort(req.Address); err != nil {
		return badRequest(fmt.Sprintf("address %q: %v", req.Address, err))
	}
	outcome, err := s.node.AddPeer(r.Context(), req.ID, req.Address, cluster.AddOptions{NonVoter: req.NonVoter})
	s.record(r, state.AuditRecord{Kind: state.AuditMemberAdd,
		Detail: fmt.Sprintf("id=%s address=%s non-voter=%t", req.ID, req.Address, req.NonVoter)}, err)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"result": outcome})
	return nil
}

func (s *Server) removePeer(w http.ResponseWriter, r *http.Request) error {
	opts := cluster.RemoveOptions{Force: r.URL.Query().Get("force") == "true", Drain: cluster.DefaultDrain}
	if v := r.URL.Query().Get("drain"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > cluster.MaxDrain {
			return badRequest(fmt.Sprintf("drain %q: want a duration from 0s to %s, e.g. 30s", v, cluster.MaxDrain))
		}
		opts.Drain = d
	}
	res, err := s.node.RemovePeer(r.Context(), r.PathValue("id"), opts)
	s.record(r, state.AuditRecord{Kind: state.AuditMemberRemove,
		Detail: fmt.Sprintf("id=%s drain=%s force=%t", r.PathValue("id"), opts.Drain, opts.Force)}, err)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// suffrage serves peers promote (voter) and peers demote.
func (s *Server) suffrage(voter bool) func(w http.ResponseWriter, r *http.Request) error {
	kind := state.AuditMemberDemote
	if voter {
		kind = state.AuditMemberPromote
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		outcome, err := s.node.SetSuffrage(r.Context(), r.PathValue("id"), voter)
		s.record(r, state.AuditRecord{Kind: kind, Detail: "id=" + r.PathValue("id")}, err)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]string{"result": outcome})
		return nil
	}
}

func (s *Server) transferLeader(w http.ResponseWriter, r *http.Request) error {
	old, _ := s.node.Leader()
	err := s.node.TransferLeadership(r.Context(), r.URL.Query().Get("to"))
	s.record(r, state.AuditRecord{Kind: state.AuditLeaderTransfer,
		Detail: fmt.Sprintf("from=%s to=%s", old, cmp.Or(r.URL.Query().Get("to"), "(any)"))}, err)
	if err != nil {
		if errors.Is(err, cluster.ErrNotLeader) || errors.Is(err, cluster.ErrNoLeader) || errors.Is(err, cluster.ErrUnknownMember) {
			return err
		}
		return &httpError{code: http.StatusConflict, msg: "leadership transfer refused: " + err.Error()}
	}
	// This member learns the new leader's name with its first heartbeat.
	id := ""
	_ = poll.Until(r.Context(), 3*time.Second, 20*time.Millisecond, "the new leader", func() (bool, error) {
		id, _ = s.node.Leader()
		return id != "" && id != old, nil
	})
	writeJSON(w, http.StatusOK, map[string]string{"result": "transferred", "leaderId": id})
	return nil
}

func (s *Server) saveSnapshot(w http.ResponseWriter, _ *http.Request) error {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(restoreTimeout))
	w.Header().Set("Content-Type", "application/octet-stream")
	n, err := s.node.SaveSnapshot(w)
	if err != nil && n == 0 {
		return err
	}
	if err != nil {
		// The status line is gone; reset the connection so the client
		// cannot take a truncated body for a whole snapshot.
		s.logger.Error("snapshot download broke off", "bytes", n, "error", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}

// anyMember runs h on this member and writes its error.
func (s *Server) anyMember(h func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeError(w, err)
		}
	}
}

// leaderOnly runs h on the leader and proxies the request to the leader's
// admin address when this member is a follower. A proxied request is run
// where it arrives, never proxied again (hop limit one).
func (s *Server) leaderOnly(h func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	run := s.anyMember(h)
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.node.IsLeader() && r.Header.Get(forwardedHeader) == "" {
			s.proxyToLeader(w, r)
			return
		}
		run(w, r)
	}
}

// forwardedHeader marks a request proxied from a follower (hop limit one)
// and carries the leader's ticket for its caller (proxyticket.go).
const forwardedHeader = "X-Raftns-Forwarded"

func (s *Server) proxyToLeader(w http.ResponseWriter, r *http.Request) {
	st := s.node.Status()
	if st.LeaderHTTPAddr == "" {
		writeError(w, fmt.Errorf("%w: the leader's admin address is not known yet", cluster.ErrNoLeader))
		return
	}
	target := &url.URL{Scheme: s.proxyScheme, Host: st.LeaderHTTPAddr}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.Transport = s.proxyTransport
	proxy.ModifyResponse = s.showHere
	proxy.ErrorLog = s.logger.StandardLogger(&hclog.StandardLoggerOptions{InferLevels: true})
	proxy.ErrorHandler = func(w http.ResponseWriter, _ *http.Request, err error) {
		s.logger.Warn("leader admin request failed", "leader", st.LeaderHTTPAddr, "error", err)
		writeJSON(w, http.StatusBadGateway, map[string]string{"error": fmt.Sprintf("leader %s at %s: %v", st.LeaderID, st.LeaderHTTPAddr, err)})
	}
	// The leader believes neither the caller's X-Forwarded-For nor a
	// forwarded header it did not issue: the ticket carries the caller.
	r.Header.Set(forwardedHeader, cmp.Or(s.vouch(r.Context(), s.clientAddr(r), r.Method, r.URL.Path), "unvouched"))
	direct := proxy.Director
	proxy.Director = func(out *http.Request) {
		direct(out)
		out.Header["X-Forwarded-For"] = nil // not added by the proxy either
	}
	proxy.ServeHTTP(w, r)
}

// proxyTransport bounds connecting to the leader and waiting for its answer
// headers; a snapshot body may then take as long as it takes.
var proxyTransport = &http.Transport{
	DialContext:           (&net.Dialer{Timeout: 3 * time.Second}).DialContext,
	ResponseHeaderTimeout: 30 * time.Second,
}

type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(msg string) error { return &httpError{code: http.StatusBadRequest, msg: msg} }

func writeError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var he *httpError
	switch {
	case errors.As(err, &he):
		code = he.code
	case errors.Is(err, cluster.ErrNotLeader), errors.Is(err, cluster.ErrNoLeader), errors.Is(err, cluster.ErrLeaderNotReady),
		errors.Is(err, cluster.ErrNotVisibleYet):
		code = http.StatusServiceUnavailable
	case errors.Is(err, cluster.ErrQuorumAtRisk), errors.Is(err, cluster.ErrTooOldToJoin), errors.Is(err, cluster.ErrReleaseUnknown):
		code = http.StatusConflict
	case errors.Is(err, cluster.ErrUnknownMember):
		code = http.StatusNotFound
	case errors.Is(err, cluster.ErrRemoved):
		code = http.StatusGone
	}
	answer := map[string]string{"error": err.Error()}
	if errors.Is(err, cluster.ErrReleaseUnknown) {
		answer["reason"] = adminapi.ReasonNotAnswering
	}
	writeJSON(w, code, answer)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
