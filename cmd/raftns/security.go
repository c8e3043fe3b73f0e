package main

import (
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/httpapi"
	"github.com/raftns/raftns/protocol/acl"
)

// isLoopbackHost reports whether host names only this machine: a loopback
// IP or localhost. An empty or unspecified host binds every interface.
func isLoopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validateClusterExposure refuses a cluster port reachable from other
// machines that trusts anyone: neither TLS nor a cluster key, unless the
// operator said so with --cluster-insecure.
func (c *config) validateClusterExposure() error {
	if isLoopbackHost(c.ClusterAddr) || c.ClusterTLSCert != "" || c.ClusterKeyFile != "" || c.ClusterInsecure {
		return nil
	}
	return fmt.Errorf("cluster address %s is not loopback and the cluster port has neither TLS (--cluster-tls-cert/key/ca) "+
		"nor a cluster key (--cluster-key-file): anyone reaching it could rewrite the routes and the membership. "+
		"Set one, or pass --cluster-insecure to accept that", c.ClusterAddr)
}

// clusterKey loads the cluster key; nil when none is configured.
func (c *config) clusterKey() ([]byte, error) {
	if c.ClusterKeyFile == "" {
		return nil, nil
	}
	return cluster.LoadClusterKey(c.ClusterKeyFile)
}

// validateHTTPSecurity checks the admin port's TLS pair, and that reads
// which need the token (--acl-mode all) have one to need.
func (c *config) validateHTTPSecurity() error {
	if (c.HTTPTLSCert == "") != (c.HTTPTLSKey == "") {
		return fmt.Errorf("admin TLS needs --http-tls-cert and --http-tls-key together")
	}
	if _, err := httpapi.ParseTrustedProxies(c.HTTPTrustedProxies); err != nil {
		return err
	}
	if c.readsNeedToken() && c.HTTPAddr != "" && c.HTTPTokenFile == "" {
		return fmt.Errorf("--acl-mode all makes the admin port's reads of KV, routes, the watch feed and the audit trail " +
			"need the admin token, and no --http-token-file is set: set one, or pass --http-public-reads to leave those reads open")
	}
	return nil
}

// readsNeedToken: under --acl-mode all the admin port's reads of the state
// are guarded as the RocketMQ port's are, unless the operator opened them.
func (c *config) readsNeedToken() bool {
	mode, err := acl.ParseMode(c.ACLMode)
	return err == nil && mode == acl.All && !c.HTTPPublicReads
}

// readSecretFile reads a token file.
func readSecretFile(what, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return string(b), nil
}

// validateACL checks the access-control settings.
func (c *config) validateACL() error {
	mode, err := acl.ParseMode(c.ACLMode)
	if err != nil {
		return err
	}
	if mode != acl.Off && c.ACLFile == "" {
		return fmt.Errorf("acl mode %s needs --acl-file with the accounts", mode)
	}
	if _, err := acl.ParseAddrList(c.ACLBrokerAddrs); err != nil {
		return fmt.Errorf("acl broker addresses: %w", err)
	}
	return nil
}

// aclChecker loads the accounts and builds the checker; nil when off.
func (c *config) aclChecker() (*acl.Checker, error) {
	mode, err := acl.ParseMode(c.ACLMode)
	if err != nil || mode == acl.Off {
		return nil, err
	}
	accounts, err := acl.LoadAccounts(c.ACLFile)
	if err != nil {
		return nil, err
	}
	return acl.NewChecker(mode, accounts, c.ACLBrokerAddrs)
}

// httpOptions loads the admin port's token and TLS files.
func (c *config) httpOptions() (httpapi.Options, error) {
	o := httpapi.Options{MaxConns: c.HTTPMaxConns, MaxRestoreSize: c.MaxRestoreSize, SpoolDir: c.DataDir,
		Profiling: c.HTTPPprof, AuditQueryRate: c.AuditQueryRate, Exposed: c.HTTPAddr != "" && !isLoopbackHost(c.HTTPAddr),
		WatchAnonymous: c.WatchMaxAnonymous, WatchAnonymousPerAddr: c.WatchMaxAnonymousPerAddr,
		StreamWriteTimeout: c.WatchWriteTimeout, ReadsNeedToken: c.readsNeedToken()}
	var err error
	if o.TrustedProxies, err = httpapi.ParseTrustedProxies(c.HTTPTrustedProxies); err != nil {
		return o, err
	}
	if c.HTTPTokenFile != "" {
		tok, err := readSecretFile("admin token file", c.HTTPTokenFile)
		if err != nil {
			return o, err
		}
		if o.Token = strings.TrimSpace(tok); len(o.Token) < 16 {
			return o, fmt.Errorf("admin token file %s holds %d characters, need at least 16", c.HTTPTokenFile, len(o.Token))
		}
	}
	if c.HTTPTLSCert != "" {
		var err error
		if o.TLS, o.ProxyRoots, err = httpapi.LoadTLS(c.HTTPTLSCert, c.HTTPTLSKey); err != nil {
			return o, err
		}
	}
	return o, nil
}
