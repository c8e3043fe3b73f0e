package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
)

// LoadTLS reads a member's certificate and key and the CA certificates
// (all PEM) and returns the configuration for Config.TLS: the certificate
// is presented both when accepting and when dialing, and the CA pool
// verifies the certificates of the other members in both directions. Any
// unreadable or invalid file is an error naming it. Files are read once;
// replacing them takes a restart.
func LoadTLS(certFile, keyFile, caFile string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("cluster TLS: load certificate %s and key %s: %w", certFile, keyFile, err)
	}
	pemCA, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("cluster TLS: read CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemCA) {
		return nil, fmt.Errorf("cluster TLS: CA file %s holds no PEM certificate", caFile)
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		RootCAs:      pool,
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS13,
	}, nil
}

// ValidateTLS checks that c can serve as both ends of mutual TLS.
func ValidateTLS(c *tls.Config) error {
	switch {
	case len(c.Certificates) == 0 && c.GetCertificate == nil:
		return errors.New("cluster TLS has no certificate")
	case c.RootCAs == nil || c.ClientCAs == nil:
		// A nil RootCAs would trust the system roots: any public CA
		// could then vouch for a member.
		return errors.New("cluster TLS needs the CA pool in RootCAs and ClientCAs")
	case c.InsecureSkipVerify:
		return errors.New("cluster TLS may not skip verification")
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
