package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
)

// LoadTLS reads a member's certificate and key and the CA certificates
// (all PEM) and returns the configuration for Config.TLS: the certificate
// is presented both when accepting and when dialing, and the CA pool
// verifies the certificates of the other members in both directions. Any
// unreadable or invalid file is an ErrBadConfig naming it. Files are read
// once; replacing them takes a restart.
func LoadTLS(certFile, keyFile, caFile string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("%w: cluster TLS: load certificate %s and key %s: %w", ErrBadConfig, certFile, keyFile, err)
	}
	pemCA, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("%w: cluster TLS: read CA file: %w", ErrBadConfig, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemCA) {
		return nil, fmt.Errorf("%w: cluster TLS: CA file %s holds no PEM certificate", ErrBadConfig, caFile)
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		RootCAs:      pool,
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS13,
	}, nil
}

// validateTLS checks that c can serve as both ends of mutual TLS.
func validateTLS(c *tls.Config) error {
	switch {
	case len(c.Certificates) == 0 && c.GetCertificate == nil:
		return fmt.Errorf("%w: cluster TLS has no certificate", ErrBadConfig)
	case c.RootCAs == nil || c.ClientCAs == nil:
		// A nil RootCAs would trust the system roots: any public CA
		// could then vouch for a member.
		return fmt.Errorf("%w: cluster TLS needs the CA pool in RootCAs and ClientCAs", ErrBadConfig)
	case c.InsecureSkipVerify:
		return fmt.Errorf("%w: cluster TLS may not skip verification", ErrBadConfig)
	}
	return nil
}

// serverTLS is what the cluster port handshakes with: a client certificate
// signed by the CA is required whatever the caller set.
func serverTLS(c *tls.Config) *tls.Config {
	if c == nil {
		return nil
	}
	s := c.Clone()
	s.ClientAuth = tls.RequireAndVerifyClientCert
	s.MinVersion = max(s.MinVersion, tls.VersionTLS12)
	return s
}

// tlsClient runs the client handshake on conn to the member at addr. The
// member's certificate must be signed by the CA and name addr's host (IP
// or DNS SAN), as Raft and the member directory address it.
func tlsClient(ctx context.Context, conn net.Conn, base *tls.Config, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	c := base.Clone()
	c.ServerName = host
	c.MinVersion = max(c.MinVersion, tls.VersionTLS12)
	tc := tls.Client(conn, c)
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, fmt.Errorf("tls handshake with %s: %w", addr, err)
	}
	return tc, nil
}
