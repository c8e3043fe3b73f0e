package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/clientport"
)

// Client-port keys. The tls.* keys are the reference's (TlsSystemConfig);
// proxyProtocol and tlsReloadInterval are RaftNS's.
const (
	keyTLSMode           = "tls.server.mode"
	keyTLSCert           = "tls.server.certPath"
	keyTLSKey            = "tls.server.keyPath"
	keyTLSKeyPassword    = "tls.server.keyPassword"
	keyTLSTrustCert      = "tls.server.trustCertPath"
	keyTLSAuthClient     = "tls.server.authClient"
	keyTLSNeedClientAuth = "tls.server.need.client.auth"
	keyTLSTestMode       = "tls.test.mode.enable"
	keyTLSConfigFile     = "tls.config.file"
	keyProxyProtocol     = "proxyProtocol"
	keyTLSReload         = "tlsReloadInterval"
)

// clientPortKeys may not be changed by UPDATE_NAMESRV_CONFIG: they take
// effect at start (certificates: on reload).
var clientPortKeys = []string{keyTLSMode, keyTLSCert, keyTLSKey, keyTLSKeyPassword, keyTLSTrustCert,
	keyTLSAuthClient, keyTLSNeedClientAuth, keyTLSTestMode, keyTLSConfigFile, keyProxyProtocol, keyTLSReload}

// clientPortSettings is the client port's configuration as read from the
// properties (with the tls.config.file's tls.* keys over them, as in the
// reference).
type clientPortSettings struct {
	mode          clientport.TLSMode
	files         clientport.TLSFiles
	proxyProtocol bool
	reload        time.Duration
}

// clientPort reads and checks the client-port keys; it reads no
// certificate.
func (c *config) clientPort() (clientPortSettings, error) {
	props := c.Namesrv
	if path := props[keyTLSConfigFile]; path != "" {
		text, err := os.ReadFile(path)
		if err != nil {
			return clientPortSettings{}, fmt.Errorf("%s: %w", keyTLSConfigFile, err)
		}
		fileProps, err := body.ParseProperties(text)
		if err != nil {
			return clientPortSettings{}, fmt.Errorf("%s %s: %w", keyTLSConfigFile, path, err)
		}
		props = mergeTLSKeys(props, fileProps)
	}
	var s clientPortSettings
	var err error
	if s.mode, err = clientport.ParseTLSMode(props[keyTLSMode]); err != nil {
		return s, err
	}
	if props[keyTLSKeyPassword] != "" {
		return s, fmt.Errorf("%s: encrypted private keys are not supported; decrypt the key (openssl pkey)", keyTLSKeyPassword)
	}
	if s.files.ClientAuth, err = clientport.ParseClientAuth(props[keyTLSNeedClientAuth]); err != nil {
		return s, err
	}
	s.files.CertFile, s.files.KeyFile = props[keyTLSCert], props[keyTLSKey]
	// The reference checks client certificates against trustCertPath only
	// with tls.server.authClient=true; RaftNS uses a given trustCertPath
	// unless authClient is explicitly false.
	authClient, err := optBool(props, keyTLSAuthClient, true)
	if err != nil {
		return s, err
	}
	if authClient {
		s.files.ClientCAFile = props[keyTLSTrustCert]
	}
	if s.files.SelfSigned, err = optBool(props, keyTLSTestMode, false); err != nil {
		return s, err
	}
	if s.proxyProtocol, err = optBool(props, keyProxyProtocol, false); err != nil {
		return s, err
	}
	s.reload = 10 * time.Second
	if v := props[keyTLSReload]; v != "" {
		if s.reload, err = parseDuration(v); err != nil || s.reload < 0 {
			return s, fmt.Errorf("%s %q: not a duration", keyTLSReload, v)
		}
	}
	return s, nil
}

// mergeTLSKeys returns base with the tls.* keys of over.
func mergeTLSKeys(base, over map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if strings.HasPrefix(k, "tls.") {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

func optBool(props map[string]string, key string, def bool) (bool, error) {
	v, ok := props[key]
	if !ok || strings.TrimSpace(v) == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return def, fmt.Errorf("%s %q: not a boolean", key, v)
	}
	return b, nil
}

// clientPortConfig loads the certificates; certs is nil with TLS disabled.
func clientPortConfig(s clientPortSettings, logger hclog.Logger) (clientport.Config, *clientport.CertStore, error) {
	cfg := clientport.Config{TLSMode: s.mode, ProxyProtocol: s.proxyProtocol, Logger: logger.Named("client-port")}
	if s.mode == clientport.TLSDisabled {
		return cfg, nil, nil
	}
	certs, err := clientport.NewCertStore(s.files)
	if err != nil {
		return cfg, nil, err
	}
	cfg.Certs = certs
	return cfg, certs, nil
}
