package namesrv

import (
	"context"
	"math"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

// Cluster is what the handlers need of the member's Raft node
// (*cluster.Node satisfies it).
type Cluster interface {
	Apply(ctx context.Context, t fsm.CommandType, cmd any) (any, error)
	// ApplyLeaderOnly proposes a command only a leader decides; it fails
	// on a member that is not the leader in office.
	ApplyLeaderOnly(ctx context.Context, t fsm.CommandType, cmd any) (any, error)
	// LeaderReady reports whether this member is the leader in office.
	LeaderReady() bool
	Register(ctx context.Context, cmd *state.RegisterBroker) (state.RegisterResult, error)
	Heartbeat(key state.BrokerKey) bool
	// RegisterUnchanged counts a registration recognised as unchanged
	// without decoding it and refreshes the broker's liveness, as Register
	// does for an unchanged one; false if the broker is not registered.
	RegisterUnchanged(key state.BrokerKey) bool
	BrokerConnected(key state.BrokerKey)
	BrokerDisconnected(key state.BrokerKey)
	Ready() (bool, string)
	// Visible reports whether the local state shows every write this
	// member answered; AwaitVisible waits until it does. A forwarded write
	// is answered once the leader applied it, before this member has: a
	// request that reads local state waits for it (read-your-writes).
	Visible() bool
	AwaitVisible(ctx context.Context) error
	// Removed reports a member removed from the cluster: every request
	// is then answered with cluster.RemarkRemoved.
	Removed() bool
	FSM() *fsm.FSM
	// RecordAudit records a change that is not a command of its own in
	// the audit trail; the caller rides on ctx (cluster.WithCaller).
	RecordAudit(ctx context.Context, rec state.AuditRecord) error
}

// Observer receives one call per answered request, for metrics.
type Observer interface {
	ObserveRequest(code, responseCode int32, elapsed time.Duration)
}

// UnsupportedRequest is the code an Observer is given for a request whose
// code this server does not serve. Request codes are chosen by clients;
// folding the unserved ones into one keeps the metrics' label sets bounded
// by the codes the server knows, not by what senders invent.
const UnsupportedRequest int32 = math.MinInt32

// Config configures the NameServer protocol server.
type Config struct {
	// WriteTimeout bounds a write request, waiting for a leader included.
	WriteTimeout time.Duration
	// Remoting configures connections (limits, idle timeout, the memory
	// budget that inflated register bodies are charged to as well).
	Remoting remoting.ServerConfig
	// MaxInflatedBody bounds what one compressed REGISTER_BROKER body may
	// inflate to; 0 means body.DefaultMaxInflated.
	MaxInflatedBody int
	Settings        *Settings
	// ACL, when set, decides which requests need a RocketMQ ACL signature.
	ACL      *acl.Checker
	Observer Observer
	Logger   hclog.Logger
	// Controller configures the RocketMQ 5 controller (docs/operators/controller.md).
	Controller ControllerConfig
	// Production, when set, answers route queries for topics this cluster
	// does not hold while the clusterTest setting is on.
	Production ProductionRoutes
}

// ControllerConfig switches the controller on and holds its settings.
type ControllerConfig struct {
	// Enabled serves the controller request codes (the reference's
	// enableControllerInNamesrv).
	Enabled bool
	// Settings are changed by UPDATE_CONTROLLER_CONFIG; nil starts empty.
	Settings *Settings
}

// DefaultConfig returns the defaults.
func DefaultConfig() Config {
	return Config{
		WriteTimeout: 5 * time.Second,
		Remoting:     remoting.DefaultServerConfig(),
		Settings:     NewSettings(nil, nil),
	}
}

// Server answers RocketMQ NameServer requests on one member.
type Server struct {
	cfg      Config
	cluster  Cluster
	fsm      *fsm.FSM
	logger   hclog.Logger
	routes   *routeCache
	brokers  *brokerConns
	regCache *registrationCache
	rounds   *splitRounds
	dispatch map[int32]codeRow
	ctrl     *controllerPort
	rs       *remoting.Server
	stop     chan struct{}

	notifierOnce sync.Once
	notifier     *minIDNotifier
}

// New returns a server for the member whose node is c.
func New(cfg Config, c Cluster) *Server {
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	if cfg.Settings == nil {
		cfg.Settings = NewSettings(nil, nil)
	}
	s := &Server{
		cfg:      cfg,
		cluster:  c,
		fsm:      c.FSM(),
		logger:   cfg.Logger.Named("namesrv"),
		routes:   newRouteCache(),
		regCache: newRegistrationCache(cfg.Remoting.Budget),
		rounds:   newSplitRounds(cfg.Remoting.Budget),
		stop:     make(chan struct{}),
	}
	s.brokers = newBrokerConns(c)
	s.ctrl = s.enableController()
	s.shareSettings()
	dispatch, err := dispatchOf(s.requestTable())
	if err != nil {
		panic(err) // a programming error, caught by every test that starts a server
	}
	s.dispatch = dispatch
	rcfg := cfg.Remoting
	rcfg.OnClose = s.brokers.connClosed
	s.rs = remoting.NewServer(rcfg, s, cfg.Logger.Named("remoting"))
	return s
}

// Serve accepts connections on ln until Close.
func (s *Server) Serve(ln net.Listener) error {
	go s.shedWhileUnready()
	go s.sweepBrokerState()
	s.startNotifier()
	return s.rs.Serve(ln)
}

// startNotifier starts the min-broker-id notifier once.
func (s *Server) startNotifier() {
	s.notifierOnce.Do(func() {
		n := &minIDNotifier{cluster: s.cluster, settings: s.cfg.Settings, logger: s.logger.Named("min-id"),
			client:   remoting.NewClient(remoting.ClientConfig{DialTimeout: minIDNoticeTimeout, Logger: s.logger}),
			interval: 200 * time.Millisecond, timeout: s.cfg.WriteTimeout}
		s.notifier = n
		go n.run(s.stop)
		go s.runSeeder(s.stop)
	})
}

// ServeExtra accepts connections on another listener (the controller
// address) with the same protocol, until Close.
func (s *Server) ServeExtra(ln net.Listener) error { return s.rs.Serve(ln) }

// Close stops accepting, closes every connection and waits for handlers.
func (s *Server) Close() error {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	if s.ctrl != nil {
		s.ctrl.notifier.close()
	}
	return s.rs.Close()
}

// Remoting exposes the connection-level server, for its counters.
func (s *Server) Remoting() *remoting.Server { return s.rs }

// SetObserver sets the request observer (metrics); call before Serve.
func (s *Server) SetObserver(o Observer) { s.cfg.Observer = o }
