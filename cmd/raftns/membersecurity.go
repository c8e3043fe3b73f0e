package main

import (
	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/httpapi"
	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/protocol/acl"
)

// security is what a member loads at start to defend its ports.
type security struct {
	clusterKey []byte
	http       httpapi.Options
	acl        *acl.Checker
}

// loadSecurity reads the key, token, certificate and accounts files; any
// problem stops the start with a message naming the file.
func loadSecurity(cfg *config) (*security, error) {
	s := &security{}
	var err error
	if s.clusterKey, err = cfg.clusterKey(); err != nil {
		return nil, err
	}
	if s.http, err = cfg.httpOptions(); err != nil {
		return nil, err
	}
	if s.acl, err = cfg.aclChecker(); err != nil {
		return nil, err
	}
	return s, nil
}

// applyTo sets the client port's limits and access control.
func (s *security) applyTo(cfg *config, tcfg *namesrv.Config) {
	tcfg.Remoting.Budget = membudget.New(cfg.MaxRequestMemory)
	tcfg.Remoting.FrameTimeout = cfg.FrameTimeout
	tcfg.MaxInflatedBody = int(cfg.MaxInflatedBody)
	tcfg.ACL = s.acl
}

// warn logs the exposures the operator chose.
func (s *security) warn(cfg *config, logger hclog.Logger) {
	if !isLoopbackHost(cfg.ClusterAddr) && s.clusterKey == nil && cfg.ClusterTLSCert == "" {
		logger.Warn("INSECURE: the cluster port is reachable from other machines and trusts anyone (--cluster-insecure); "+
			"set --cluster-key-file or cluster TLS", "cluster_addr", cfg.ClusterAddr)
	}
	if s.http.Exposed && s.http.Token == "" {
		logger.Warn("the admin address is not loopback and has no token: peers, leader transfer and snapshots answer only "+
			"requests from this machine; set --http-token-file to allow them from others", "http_addr", cfg.HTTPAddr)
	}
}
