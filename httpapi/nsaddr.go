package httpapi

import (
	"context"
	"errors"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/net/netutil"
)

// The RocketMQ address service (docs/operators/operations.md, "The address
// service"): what brokers with fetchNamesrvAddrByAddressServer, and
// clients, mqadmin and the proxy given rocketmq.namesrv.domain instead of
// a name-server address, fetch every 10 s (brokers) or 2 min (clients):
// GET http://DOMAIN/rocketmq/SUBGROUP, with the unit form
// SUBGROUP-UNIT?nofix=1. The answer is 200 with host:port;host:port, the
// client addresses of the ready voters, and anything else makes the
// caller keep the list it has. Every subgroup gets the same answer: a
// member serves one cluster. It is plain HTTP (callers build an http://
// URL), unauthenticated (they send no credentials) and read-only.
const addressServicePattern = "GET /rocketmq/{subgroup}"

// subgroupName is what a subgroup may look like: RocketMQ's default
// "nsaddr", the unit form "nsaddr-UNIT", names of that kind.
var subgroupName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// addressAnswerTTL is how long one answer is reused: callers cannot make
// a member read its configuration more often than this.
const addressAnswerTTL = 200 * time.Millisecond

// AddressLister is what the address service needs of the member
// (*cluster.Node): the client addresses to answer with, or why there are
// none to give.
type AddressLister interface {
	ClientAddresses() ([]string, error)
}

// addressService answers GET /rocketmq/{subgroup}.
type addressService struct {
	members AddressLister

	mu     sync.Mutex
	at     time.Time
	answer []byte
	err    error
}

func (a *addressService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !subgroupName.MatchString(r.PathValue("subgroup")) {
		http.Error(w, "no such address-service subgroup", http.StatusNotFound)
		return
	}
	answer, err := a.current()
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		http.Error(w, "no name-server list from this member now: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write(answer)
}

// current returns the answer, computed at most once per addressAnswerTTL.
func (a *addressService) current() ([]byte, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if now := time.Now(); now.Sub(a.at) >= addressAnswerTTL {
		addrs, err := a.members.ClientAddresses()
		a.at, a.answer, a.err = now, []byte(strings.Join(addrs, ";")), err
	}
	return a.answer, a.err
}

// AddressServer serves the address service alone on a listener of its own
// (raftns --address-service-addr), plain HTTP, bounded like the admin
// port: headers within its timeout and size, at most MaxConns
// connections, idle ones closed after a few seconds.
type AddressServer struct {
	srv      *http.Server
	maxConns int
}

// DefaultAddressMaxConns caps the address service's connections when no
// limit is given.
const DefaultAddressMaxConns = 256

// addressIdleTimeout closes a kept-alive connection between two fetches
// (the brokers' come every 10 s), so that connections track requests in
// flight rather than callers.
const addressIdleTimeout = 5 * time.Second

// NewAddressServer returns the address service of members, with at most
// maxConns connections (DefaultAddressMaxConns for 0 or less).
func NewAddressServer(members AddressLister, maxConns int, logger hclog.Logger) *AddressServer {
	if maxConns <= 0 {
		maxConns = DefaultAddressMaxConns
	}
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	mux := http.NewServeMux()
	mux.Handle(addressServicePattern, &addressService{members: members})
	return &AddressServer{maxConns: maxConns, srv: &http.Server{Handler: mux, ReadHeaderTimeout: headerTimeout,
		ReadTimeout: headerTimeout, WriteTimeout: headerTimeout, IdleTimeout: addressIdleTimeout, MaxHeaderBytes: maxHeaderBytes,
		ErrorLog: logger.Named("address-service").StandardLogger(&hclog.StandardLoggerOptions{InferLevels: true})}}
}

// Handler returns the HTTP handler, for tests.
func (s *AddressServer) Handler() http.Handler { return s.srv.Handler }

// Serve serves on ln until Shutdown.
func (s *AddressServer) Serve(ln net.Listener) error {
	err := s.srv.Serve(netutil.LimitListener(ln, s.maxConns))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops the server, waiting for requests up to ctx.
func (s *AddressServer) Shutdown(ctx context.Context) error { return s.srv.Shutdown(ctx) }
