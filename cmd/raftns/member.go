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
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport"
	"github.com/raftns/raftns/transport/httpapi"
)

// member is one running RaftNS member: Raft node, RocketMQ protocol server
// and admin HTTP server.
type member struct {
	logger hclog.Logger
	node   *cluster.Node
	ns     *transport.Server
	http   *httpapi.Server
	errc   chan error
}

// startMember opens the ports, starts Raft and begins serving.
func startMember(cfg *config, id string, logger hclog.Logger) (*member, error) {
	clientLn, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen for clients on %s: %w", cfg.Listen, err)
	}
	clusterLn, err := net.Listen("tcp", cfg.ClusterAddr)
	if err != nil {
		clientLn.Close()
		return nil, fmt.Errorf("listen for members on %s: %w", cfg.ClusterAddr, err)
	}
	var httpLn net.Listener
	if cfg.HTTPAddr != "" {
		if httpLn, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
			clientLn.Close()
			clusterLn.Close()
			return nil, fmt.Errorf("listen for admin HTTP on %s: %w", cfg.HTTPAddr, err)
		}
	}
	m := &member{logger: logger, errc: make(chan error, 3)}
	registry := prometheus.NewRegistry()
	if err := httpapi.InstallRaftMetrics(registry); err != nil {
		logger.Warn("raft metrics unavailable", "error", err)
	}
	m.node, err = cluster.New(clusterConfig(cfg, id, clusterLn, clientLn, httpLn, logger), fsm.New(logger), clusterLn)
	if err != nil {
		clientLn.Close()
		if httpLn != nil {
			httpLn.Close()
		}
		return nil, err
	}
	settings := transport.NewSettings(cfg.properties(), persistSettings(cfg.persistedPath()), raftnsKeys...)
	tcfg := transport.DefaultConfig()
	tcfg.Settings, tcfg.Logger = settings, logger
	tcfg.Remoting.MaxConns, tcfg.Remoting.IdleTimeout = cfg.MaxConns, cfg.IdleTimeout
	var metrics *httpapi.Metrics
	m.ns = transport.New(tcfg, m.node)
	metrics = httpapi.NewMetricsIn(registry, m.node, httpapi.NewConnCollector(m.ns.Remoting()))
	m.ns.SetObserver(metrics)
	go func() { m.errc <- m.ns.Serve(clientLn) }()
	if httpLn != nil {
		m.http = httpapi.New(m.node, metrics.Registry, logger)
		go func() { m.errc <- m.http.Serve(httpLn) }()
	}
	logger.Info("raftns member started", "id", id, "client", clientLn.Addr().String(),
		"cluster", clusterLn.Addr().String(), "http", addrOf(httpLn), "data_dir", cfg.DataDir)
	return m, nil
}

func clusterConfig(cfg *config, id string, clusterLn, clientLn, httpLn net.Listener, logger hclog.Logger) *cluster.Config {
	c := cluster.DefaultConfig()
	c.ID, c.DataDir = id, cfg.DataDir
	c.ClusterAddr = advertised(cfg.ClusterAddr, clusterLn)
	c.ClientAddr = advertised(cfg.Listen, clientLn)
	c.HTTPAddr = addrOf(httpLn)
	c.Peers, c.Join, c.Bootstrap = cfg.Peers, cfg.Join, cfg.Bootstrap
	c.RaftMultiplier = cfg.RaftMultiplier
	c.BrokerExpiry, c.ScanInterval, c.ConnCloseGrace, c.MaxStale = cfg.BrokerExpiry, cfg.ScanInterval, cfg.ConnCloseGrace, cfg.MaxStale
	c.Logger = logger
	return c
}

// advertised returns the configured address with the bound port filled in
// (for port 0) and an unspecified host replaced by the loopback address.
func advertised(configured string, ln net.Listener) string {
	host, _, _ := net.SplitHostPort(configured)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
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
		for _, k := range raftnsKeys {
			delete(keep, k)
		}
		delete(keep, "configStorePath")
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, transport.FormatProperties(keep), 0o644); err != nil {
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
		if err := m.node.TransferLeadership(""); err != nil && !errors.Is(err, cluster.ErrNotLeader) {
			m.logger.Warn("leadership transfer before shutdown failed", "error", err)
		} else {
			id, _ := m.node.Leader()
			m.logger.Info("leadership transferred before shutdown", "new_leader", id)
		}
	}
	m.ns.Close()
	err := m.node.Shutdown()
	if m.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		m.http.Shutdown(ctx)
	}
	return err
}
