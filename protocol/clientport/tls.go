package clientport

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// TLSMode is the reference's tls.server.mode.
type TLSMode int

// The modes, named as in the reference.
const (
	// TLSDisabled refuses TLS: a connection that opens with a TLS handshake
	// is closed.
	TLSDisabled TLSMode = iota
	// TLSPermissive accepts TLS and plain connections on the same port.
	TLSPermissive
	// TLSEnforcing accepts TLS only: a plain connection is closed.
	TLSEnforcing
)

// tlsModeNames are the modes' names, by mode.
var tlsModeNames = []string{"disabled", "permissive", "enforcing"}

// ParseTLSMode reads "disabled", "permissive" or "enforcing" (any case); an
// empty value is disabled.
func ParseTLSMode(s string) (TLSMode, error) {
	return parseName[TLSMode]("tls.server.mode", s, tlsModeNames)
}

func (m TLSMode) String() string { return tlsModeNames[m] }

// ClientAuth is the reference's tls.server.need.client.auth.
type ClientAuth int

// Client certificate policies, named as in the reference.
const (
	ClientAuthNone ClientAuth = iota
	ClientAuthOptional
	ClientAuthRequire
)

// ParseClientAuth reads "none", "optional" or "require" (any case); like the
// reference, an empty value is none.
func ParseClientAuth(s string) (ClientAuth, error) {
	return parseName[ClientAuth]("tls.server.need.client.auth", s, []string{"none", "optional", "require"})
}

// parseName returns the value whose name, in names (indexed by value), is s
// in any case and without surrounding space; an empty s is the first value.
// what names the setting in the error.
func parseName[T ~int](what, s string, names []string) (T, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	if name == "" {
		return 0, nil
	}
	if i := slices.Index(names, name); i >= 0 {
		return T(i), nil
	}
	last := len(names) - 1
	return 0, fmt.Errorf("%s %q is not %s or %s", what, s, strings.Join(names[:last], ", "), names[last])
}

// TLSFiles names the server's PEM files.
type TLSFiles struct {
	CertFile string // tls.server.certPath
	KeyFile  string // tls.server.keyPath
	// ClientCAFile (tls.server.trustCertPath) verifies client certificates
	// when ClientAuth is optional or require; without it any client
	// certificate is accepted, as the reference's insecure trust manager.
	ClientCAFile string
	ClientAuth   ClientAuth
	// SelfSigned (tls.test.mode.enable) makes a throw-away certificate in
	// memory instead of reading CertFile and KeyFile.
	SelfSigned bool
}

// CertStore holds the server's TLS material and reloads it from its files.
// Connections use what was loaded when they started; a failed reload keeps
// the previous material and reports the error.
type CertStore struct {
	files TLSFiles
	cur   atomic.Pointer[tls.Config]

	mu     sync.Mutex
	stamps map[string]time.Time // modification times at the last load
}

// NewCertStore loads the files once; it fails when they do not make a
// usable server configuration.
func NewCertStore(files TLSFiles) (*CertStore, error) {
	if !files.SelfSigned && (files.CertFile == "" || files.KeyFile == "") {
		return nil, errors.New("tls: a server certificate and key are needed (tls.server.certPath and tls.server.keyPath), or tls.test.mode.enable=true")
	}
	cs := &CertStore{files: files}
	if err := cs.Reload(); err != nil {
		return nil, err
	}
	return cs, nil
}

// Config returns the configuration new connections use.
func (cs *CertStore) Config() *tls.Config { return cs.cur.Load() }

// Reload reads the files again and swaps the configuration in when they
// are valid.
func (cs *CertStore) Reload() error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	stamps := cs.fileStamps()
	cfg, err := buildServerConfig(cs.files)
	if err != nil {
		return err
	}
	cs.cur.Store(cfg)
	cs.stamps = stamps
	return nil
}

// Changed reports whether a file's modification time or size differs from
// the last successful load.
func (cs *CertStore) Changed() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	now := cs.fileStamps()
	for k, v := range now {
		if !cs.stamps[k].Equal(v) {
			return true
		}
	}
	return len(now) != len(cs.stamps)
}

// Watch reloads whenever a file changes, checking every interval, until
// stop is closed; each outcome is passed to report.
func (cs *CertStore) Watch(interval time.Duration, stop <-chan struct{}, report func(error)) {
	poll.Every(interval, stop, func() {
		if cs.Changed() {
			report(cs.Reload())
		}
	})
}

func (cs *CertStore) fileStamps() map[string]time.Time {
	out := map[string]time.Time{}
	for _, p := range []string{cs.files.CertFile, cs.files.KeyFile, cs.files.ClientCAFile} {
		if p == "" {
			continue
		}
		if st, err := os.Stat(p); err == nil {
			out[p] = st.ModTime().Add(time.Duration(st.Size()))
		}
	}
	return out
}

func buildServerConfig(f TLSFiles) (*tls.Config, error) {
	var cert tls.Certificate
	var err error
	if f.SelfSigned {
		cert, err = selfSigned()
	} else {
		cert, err = tls.LoadX509KeyPair(f.CertFile, f.KeyFile)
	}
	if err != nil {
		return nil, fmt.Errorf("tls: server certificate: %w", err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	var pool *x509.CertPool
	if f.ClientCAFile != "" {
		pem, err := os.ReadFile(f.ClientCAFile)
		if err != nil {
			return nil, fmt.Errorf("tls: client CA: %w", err)
		}
		pool = x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls: client CA %s holds no PEM certificate", f.ClientCAFile)
		}
		cfg.ClientCAs = pool
	}
	switch {
	case f.ClientAuth == ClientAuthRequire && pool != nil:
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	case f.ClientAuth == ClientAuthRequire:
		cfg.ClientAuth = tls.RequireAnyClientCert
	case f.ClientAuth == ClientAuthOptional && pool != nil:
		cfg.ClientAuth = tls.VerifyClientCertIfGiven
	case f.ClientAuth == ClientAuthOptional:
		cfg.ClientAuth = tls.RequestClientCert
	}
	return cfg, nil
}

// selfSigned makes the throw-away certificate of tls.test.mode.enable.
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "raftns self-signed"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
