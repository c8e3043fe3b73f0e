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
// caller keep the list it has. A subgroup with a dash names a zone after
// its first dash (nsaddr-b: zone b, how a broker's rmqAddressServerSubGroup
// or a client's rocketmq.namesrv.domain.subgroup picks its zone, and the
// unit form): it gets that zone's ready members first
// (docs/operators/operations.md, "Several zones"); a zone no member
// carries, and a subgroup without a dash, get the plain answer. It is
// plain HTTP (callers build an http:// URL), unauthenticated (they send no
// credentials) and read-only.
const addressServicePattern = "GET /rocketmq/{subgroup}"

// subgroupName is what a subgroup may look like: RocketMQ's default
// "nsaddr", the unit form "nsaddr-UNIT", names of that kind.
var subgroupName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// addressAnswerTTL is how long one answer is reused: callers cannot make
// a member read its configuration more often than this.
const addressAnswerTTL = 200 * time.Millisecond

// addressAnswersKept bounds the answers kept, one per zone asked for:
// past it they are all dropped, so callers naming ever new zones cannot
// grow the cache.
const addressAnswersKept = 64

// AddressLister is what the address service needs of the member
// (*cluster.Node): the client addresses to answer a caller in zone with
// (the empty zone for none), or why there are none to give.
type AddressLister interface {
	ClientAddressesFor(zone string) ([]string, error)
}

// addressService answers GET /rocketmq/{subgroup}.
type addressService struct {
	members AddressLister

	mu      sync.Mutex
	answers map[string]addressAnswer // by lower-cased zone
}

// addressAnswer is one computed answer and when it was computed.
type addressAnswer struct {
	at     time.Time
	answer []byte
	err    error
}

// subgroupZone is the zone a subgroup names: what follows its first dash,
// empty for none.
func subgroupZone(subgroup string) string {
	_, zone, _ := strings.Cut(subgroup, "-")
	return zone
}

func (a *addressService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	subgroup := r.PathValue("subgroup")
	if !subgroupName.MatchString(subgroup) {
		http.Error(w, "no such address-service subgroup", http.StatusNotFound)
		return
	}
	answer, err := a.current(subgroupZone(subgroup))
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		http.Error(w, "no name-server list from this member now: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write(answer)
}

// current returns the answer for zone, computed at most once per
// addressAnswerTTL.
func (a *addressService) current(zone string) ([]byte, error) {
	key := strings.ToLower(zone)
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	if cached, ok := a.answers[key]; ok && now.Sub(cached.at) < addressAnswerTTL {
		return cached.answer, cached.err
	}
	if a.answers == nil || len(a.answers) >= addressAnswersKept {
		a.answers = map[string]addressAnswer{}
	}
	addrs, err := a.members.ClientAddressesFor(zone)
	fresh := addressAnswer{at: now, answer: []byte(strings.Join(addrs, ";")), err: err}
	a.answers[key] = fresh
	return fresh.answer, fresh.err
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
