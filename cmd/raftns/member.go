package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/events"
	"github.com/raftns/raftns/events/watch"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/httpapi"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/namesrv/production"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/clientport"
)

// member is one running RaftNS member: Raft node, RocketMQ protocol server
// and admin HTTP server.
type member struct {
	logger hclog.Logger
	node   *cluster.Node
	ns     *namesrv.Server
	http   *httpapi.Server
	// addrs serves the address service on a listener of its own; nil
	// without --address-service-addr.
	addrs *httpapi.AddressServer
	errc  chan error
	// events is what this member saw happen, for the status page;
	// stopEvents ends its Raft watcher.
	events     *events.Ring
	stopEvents chan struct{}
	// certs is the client port's TLS material, nil with TLS disabled.
	certs    *clientport.CertStore
	stopCert chan struct{}
	// watch tells the admin port's watchers about changes to the state.
	watch *watch.Hub
	// production answers cluster-test mode's lookups.
	production *production.Lookup
}

// listeners are a member's ports; http, controller and address are nil
// when disabled.
type listeners struct{ client, cluster, http, controller, address net.Listener }

func openListeners(cfg *config) (*listeners, error) {
	l := &listeners{}
	var err error
	if l.client, err = net.Listen("tcp", cfg.Listen); err != nil {
		return nil, fmt.Errorf("listen for clients on %s: %w", cfg.Listen, err)
	}
	if l.cluster, err = net.Listen("tcp", cfg.ClusterAddr); err != nil {
		l.close()
		return nil, fmt.Errorf("listen for members on %s: %w", cfg.ClusterAddr, err)
	}
	if cfg.Controller.Listen != "" {
		if l.controller, err = net.Listen("tcp", cfg.Controller.Listen); err != nil {
			l.close()
			return nil, fmt.Errorf("listen for controller requests on %s: %w", cfg.Controller.Listen, err)
		}
	}
	if cfg.HTTPAddr != "" {
		if l.http, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
			l.close()
			return nil, fmt.Errorf("listen for admin HTTP on %s: %w", cfg.HTTPAddr, err)
		}
	}
	if cfg.AddressServiceAddr != "" {
		if l.address, err = net.Listen("tcp", cfg.AddressServiceAddr); err != nil {
			l.close()
			return nil, fmt.Errorf("listen for the address service on %s: %w", cfg.AddressServiceAddr, err)
		}
	}
	return l, nil
}

func (l *listeners) close() {
	for _, ln := range []net.Listener{l.client, l.cluster, l.http, l.controller, l.address} {
		if ln != nil {
			ln.Close()
		}
	}
}

// clientPorts returns the client and controller listeners (ctrl is nil
// without a controller port), behind the client port's TLS and PROXY
// protocol handling when cfg needs it.
func (l *listeners) clientPorts(cfg clientport.Config) (client, ctrl net.Listener, err error) {
	if !cfg.Needed() {
		return l.client, l.controller, nil
	}
	if client, err = clientport.Listen(l.client, cfg); err != nil {
		return nil, nil, err
	}
	if l.controller != nil {
		if ctrl, err = clientport.Listen(l.controller, cfg); err != nil {
			return nil, nil, err
		}
	}
	return client, ctrl, nil
}

// startMember opens the ports, starts Raft and begins serving.
func startMember(cfg *config, id string, logger hclog.Logger) (*member, error) {
	clusterTLS, err := cfg.clusterTLS()
	if err != nil {
		return nil, err
	}
	sec, err := loadSecurity(cfg)
	if err != nil {
		return nil, err
	}
	cps, err := cfg.clientPort()
	if err != nil {
		return nil, err
	}
	cpCfg, certs, err := clientPortConfig(cps, logger)
	if err != nil {
		return nil, err
	}
	lns, err := openListeners(cfg)
	if err != nil {
		return nil, err
	}
	// Raft's own metrics go to process-wide sinks; route them before Raft
	// starts so none is lost.
	registry := prometheus.NewRegistry()
	if err := httpapi.InstallRaftMetrics(registry); err != nil {
		logger.Warn("raft metrics unavailable", "error", err)
	}
	m := &member{logger: logger, errc: make(chan error, 4), events: events.NewRing(events.DefaultCapacity), stopEvents: make(chan struct{}),
		certs: certs, stopCert: make(chan struct{}),
		watch: watch.NewHub(watch.Config{MaxWatchers: cfg.WatchMaxWatchers, Buffer: cfg.WatchBuffer}, 0)}
	ccfg, err := clusterConfig(cfg, id, lns, logger)
	if err != nil {
		lns.close()
		m.watch.Close()
		return nil, err
	}
	ccfg.TLS, ccfg.ClusterKey = clusterTLS, sec.clusterKey
	if m.node, err = cluster.New(ccfg, m.newFSM(), lns.cluster); err != nil {
		lns.close()
		m.watch.Close()
		return nil, err
	}
	if err := m.node.CheckUniqueAddrs(); err != nil {
		_ = m.node.Shutdown()
		lns.close()
		m.watch.Close()
		return nil, err
	}
	go events.WatchRaft(m.node.Raft(), m.events, m.stopEvents)
	tcfg := namesrv.DefaultConfig()
	tcfg.Settings = namesrv.NewSettings(cfg.properties(), persistSettings(cfg.persistedPath()), protectedKeys()...)
	tcfg.Logger = logger
	tcfg.Controller = cfg.controllerTransport()
	tcfg.Remoting.MaxConns, tcfg.Remoting.IdleTimeout = cfg.MaxConns, cfg.IdleTimeout
	sec.applyTo(cfg, &tcfg)
	m.production = newProductionLookup(tcfg.Settings, logger)
	tcfg.Production = m.production
	m.ns = namesrv.New(tcfg, m.node)
	metrics := httpapi.NewMetricsIn(registry, m.node, httpapi.NewConnCollector(m.ns.Remoting()),
		httpapi.NewSecurityCollector(tcfg.Remoting.Budget, tcfg.ACL), m.production.Metrics())
	m.ns.SetObserver(metrics)
	clientLn, ctrlLn, err := lns.clientPorts(cpCfg)
	if err != nil {
		m.node.Shutdown()
		lns.close()
		m.watch.Close()
		return nil, err
	}
	if certs != nil && cps.reload > 0 {
		go certs.Watch(cps.reload, m.stopCert, m.reportReload)
	}
	go func() { m.errc <- m.ns.Serve(clientLn) }()
	if ctrlLn != nil {
		go func() { m.errc <- m.ns.ServeExtra(ctrlLn) }()
	}
	m.serveHTTP(cfg, lns, registry, sec.http)
	logger.Info("raftns member started", "client_addr", lns.client.Addr().String(),
		"cluster_addr", lns.cluster.Addr().String(), "cluster_tls", clusterTLS != nil, "cluster_key", sec.clusterKey != nil,
		"http_addr", addrOf(lns.http), "address_service_addr", addrOf(lns.address), "http_token", sec.http.Token != "", "http_tls", sec.http.TLS != nil,
		"acl", cfg.ACLMode, "max_request_memory", cfg.MaxRequestMemory, "data_dir", cfg.DataDir,
		"client_tls", cps.mode.String(), "proxy_protocol", cps.proxyProtocol)
	sec.warn(cfg, logger)
	return m, nil
}

// serveHTTP starts the admin port and the address service's own port,
// each when configured.
func (m *member) serveHTTP(cfg *config, lns *listeners, registry *prometheus.Registry, opts httpapi.Options) {
	if lns.http != nil {
		m.http = httpapi.New(m.node, registry, m.logger)
		m.http.EnableStatusPage(m.events)
		m.http.EnableWatch(m.watch)
		m.http.Configure(opts)
		registry.MustRegister(httpapi.NewAdminCollector(m.http))
		go func() { m.errc <- m.http.Serve(lns.http) }()
	}
	if lns.address != nil {
		m.addrs = httpapi.NewAddressServer(m.node, cfg.AddressServiceMaxConns, m.logger)
		go func() { m.errc <- m.addrs.Serve(lns.address) }()
	}
}

func clusterConfig(cfg *config, id string, lns *listeners, logger hclog.Logger) (*cluster.Config, error) {
	c := cluster.DefaultConfig()
	c.ID, c.DataDir = id, cfg.DataDir
	c.ClusterAddr = advertised(cfg.ClusterAddr, lns.cluster, cfg.AdvertiseHost)
	if cfg.ClusterAdvertise != "" {
		c.ClusterAddr = cfg.ClusterAdvertise
	}
	var err error
	if c.ClientAddr, err = cfg.clientAddr(id, lns.client); err != nil {
		return nil, err
	}
	if lns.http != nil {
		c.HTTPAddr = advertised(cfg.HTTPAddr, lns.http, cfg.AdvertiseHost)
	}
	c.Peers, c.Join, c.Bootstrap = cfg.Peers, cfg.Join, cfg.Bootstrap
	c.RaftMultiplier = cfg.RaftMultiplier
	c.SnapshotInterval, c.SnapshotThreshold, c.TrailingLogs = cfg.SnapshotInterval, cfg.SnapshotThreshold, cfg.TrailingLogs
	c.BrokerExpiry, c.ScanInterval, c.ConnCloseGrace, c.MaxStale = cfg.BrokerExpiry, cfg.ScanInterval, cfg.ConnCloseGrace, cfg.MaxStale
	c.RemoveDrain = cfg.RemoveDrain
	c.Zone, c.AddressZoneOnly = cfg.Zone, cfg.AddressServiceZoneOnly
	c.NewCluster = cfg.NewCluster
	if cfg.PromoteAfter > 0 {
		c.PromoteAfter = cfg.PromoteAfter
	}
	c.Audit = cluster.AuditConfig{Off: !cfg.Audit, MaxRecords: cfg.AuditMaxRecords, MaxAge: cfg.AuditMaxAge}
	if cfg.AuditMaxAge == 0 {
		c.Audit.MaxAge = -1 // no age bound
	}
	c.Logger = logger
	return c, nil
}

// advertised returns the configured address with the bound port filled in
// (for port 0) and an unspecified host replaced by advertiseHost, or the
// loopback address when that is empty.
func advertised(configured string, ln net.Listener, advertiseHost string) string {
	host, _, _ := net.SplitHostPort(configured)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = advertiseHost
		if host == "" {
			host = "127.0.0.1"
		}
	}
	return net.JoinHostPort(host, port)
}

func addrOf(ln net.Listener) string {
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}

// persistSettings saves name-server settings changed by
// UPDATE_NAMESRV_CONFIG; RaftNS's own keys are never written there.
func persistSettings(path string) func(map[string]string) error {
	return func(props map[string]string) error {
		keep := map[string]string{}
		for k, v := range props {
			keep[k] = v
		}
		for _, k := range protectedKeys() {
			delete(keep, k)
		}
		delete(keep, "configStorePath")
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, body.FormatProperties(keep), 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, path)
	}
}

// shutdown leaves gracefully: hand leadership over, stop serving clients so
// they move to other members, stop Raft, stop the admin server.
func (m *member) shutdown() error {
	m.logger.Info("shutting down")
	if m.node.IsLeader() && len(m.node.FSM().Members()) > 1 {
		if err := m.node.StepDown(); err != nil && !errors.Is(err, cluster.ErrNotLeader) {
			m.logger.Warn("leadership transfer before shutdown failed", "error", err)
		} else {
			id, _ := m.node.Leader()
			m.logger.Info("leadership transferred before shutdown", "new_leader", id)
		}
	}
	close(m.stopCert)
	m.ns.Close()
	m.production.Close()
	close(m.stopEvents)
	err := m.node.Shutdown()
	// Watchers end first, so their connections do not hold up the admin
	// server's shutdown.
	m.watch.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if m.http != nil {
		m.http.Shutdown(ctx)
	}
	if m.addrs != nil {
		m.addrs.Shutdown(ctx)
	}
	return err
}

// reloadTLS reloads the client port's certificates (SIGHUP); without TLS it
// does nothing.
func (m *member) reloadTLS() {
	if m.certs != nil {
		m.reportReload(m.certs.Reload())
	}
}

func (m *member) reportReload(err error) {
	if err != nil {
		m.logger.Error("client TLS certificates not reloaded, the previous ones stay in use", "error", err)
		return
	}
	m.logger.Info("client TLS certificates reloaded")
}

// newFSM returns the member's state machine. It reports broker changes to
// the event ring, and a committed entry it cannot apply stops the member:
// skipping it would make this member differ from the others.
func (m *member) newFSM() *fsm.FSM {
	f := fsm.New(m.logger)
	f.SetObserver(m.events)
	f.SetChangeObserver(m.watch)
	f.OnHalt(func(err error) {
		select {
		case m.errc <- err:
		default:
		}
	})
	return f
}
