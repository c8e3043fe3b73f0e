package main

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"os"
	"strings"
)

// adminToken returns the admin token from --token-file, else from the
// environment; "" when neither is set.
func (a *app) adminToken() (string, error) {
	if a.tokenFile == "" {
		return strings.TrimSpace(a.token), nil
	}
	b, err := os.ReadFile(a.tokenFile)
	if err != nil {
		return "", usagef("--token-file: %v", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", usagef("--token-file %s is empty", a.tokenFile)
	}
	return tok, nil
}

// httpClient trusts --ca-file's certificates, besides the system's, for
// an https:// admin address.
func (a *app) httpClient() (*http.Client, error) {
	if a.caFile == "" {
		return &http.Client{}, nil
	}
	pem, err := os.ReadFile(a.caFile)
	if err != nil {
		return nil, usagef("--ca-file: %v", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, usagef("--ca-file %s holds no PEM certificate", a.caFile)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr}, nil
}
