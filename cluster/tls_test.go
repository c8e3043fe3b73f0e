package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"github.com/raftns/raftns/transport"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/transport/tlstest"
)

func TestClusterTLS_MembersFormClusterForwardWritesAndAdmitJoiner(t *testing.T) {
	ca := tlstest.NewCA(t, t.TempDir(), "members")
	ms := startTLSCluster(t, ca, 3)
	leader := waitNetLeader(t, ms)
	var follower *testMember
	for _, m := range ms {
		if m != leader {
			follower = m
			break
		}
	}
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	register(t, follower, cmd)
	if got := follower.node.Stats().ForwardedOut.Load(); got < 1 {
		t.Fatalf("forwarded out of %s = %d, want at least 1", follower.id, got)
	}
	for _, m := range ms {
		poll.For(t, 10*time.Second, "the registration on "+m.id, func() bool { return registered(m, cmd) })
	}

	// A fourth member joins through a follower: the Join RPC, the leader's
	// JoinAsLeader and the Raft replication to it all run over TLS.
	n4 := startNetMember(t, "n4", listenLoopback(t), loadTestTLS(t, ca.Issue(t, t.TempDir(), "n4")),
		func(c *Config) { c.Join = []string{follower.addr} })
	poll.For(t, 15*time.Second, "n4 in the configuration", func() bool { return configuredIDs(t, leader)["n4"] })
	poll.For(t, 10*time.Second, "the registration on n4", func() bool { return registered(n4, cmd) })
	for _, m := range append(ms, n4) {
		if got := m.node.Stats().ClusterConnsRejected.Load(); got != 0 {
			t.Errorf("%s rejected %d connections between members, want 0", m.id, got)
		}
	}
}

func TestClusterTLS_RefusesClientsWithoutAValidCertificate(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	rogue := tlstest.NewCA(t, dir, "rogue")
	logs := &logTail{}
	m := startNetMember(t, "n1", listenLoopback(t), loadTestTLS(t, ca.Issue(t, dir, "n1")), func(c *Config) {
		c.Logger = hclog.New(&hclog.LoggerOptions{Name: "n1", Level: hclog.Warn, Output: io.MultiWriter(testWriter{t}, logs)})
	})
	waitNetLeader(t, []*testMember{m})
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	intruder := rogue.Issue(t, dir, "intruder")
	rogueCert, err := tls.LoadX509KeyPair(intruder.CertFile, intruder.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		tls       *tls.Config // nil: plain TCP
		serverLog string      // the member's reason for the refusal
	}{
		{"no certificate", &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}, "didn't provide a certificate"},
		// GetClientCertificate presents the certificate whatever CAs the
		// server asks for; from Certificates Go would send none.
		{"certificate from another CA", &tls.Config{InsecureSkipVerify: true,
			GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &rogueCert, nil }},
			"signed by unknown authority"},
		{"plain connection", nil, "does not look like a TLS handshake"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := m.node.Stats().ClusterConnsRejected.Load()
			c := rawRPCClient(t, m.addr, tc.tls)
			var reply LeaderReply
			err := c.Call("Cluster.Join", &JoinArgs{ID: "intruder", ClusterAddr: "127.0.0.1:1"}, &reply)
			if err == nil {
				t.Fatalf("Join from an unauthenticated client answered %+v, want a refused connection", reply)
			}
			if ids := configuredIDs(t, m); len(ids) != 1 || !ids["n1"] {
				t.Fatalf("configuration = %v after a refused Join, want only n1", ids)
			}
			poll.For(t, 5*time.Second, "the refusal counted and logged with "+tc.serverLog, func() bool {
				return m.node.Stats().ClusterConnsRejected.Load() > before && strings.Contains(logs.String(), tc.serverLog)
			})
		})
	}

	// The same client code with a member certificate gets an answer, so
	// the refusals above are the certificates' doing.
	good := loadTestTLS(t, ca.Issue(t, dir, "operator"))
	good.ServerName = "127.0.0.1"
	var st adminapi.Status
	if err := rawRPCClient(t, m.addr, good).Call("Cluster.Status", &StatusArgs{}, &st); err != nil {
		t.Fatalf("Status with a member certificate: %v", err)
	}
	if st.ID != "n1" {
		t.Fatalf("status id = %q, want n1", st.ID)
	}
}

func TestClusterTLS_SilentConnectionIsClosedAfterHandshakeTimeout(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	m := startNetMember(t, "n1", listenLoopback(t), loadTestTLS(t, ca.Issue(t, dir, "n1")), nil)
	conn, err := net.Dial("tcp", m.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Half a TLS record header: the server waits for the rest until its
	// handshake timeout, then closes.
	if _, err := conn.Write([]byte{0x16, 0x03}); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(transport.HandshakeTimeout + 10*time.Second))
	start := time.Now()
	_, err = conn.Read(make([]byte, 1))
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection still open %v after a stalled handshake", time.Since(start))
	}
	if err == nil || (!errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "reset")) {
		t.Fatalf("read after stalled handshake = %v, want the connection closed", err)
	}
	poll.For(t, 5*time.Second, "the stalled connection counted", func() bool {
		return m.node.Stats().ClusterConnsRejected.Load() == 1
	})
}

func TestClusterTLS_DialerFailsCleanlyAgainstPlainPort(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	plain := startNetMember(t, "plain", listenLoopback(t), nil, nil)
	d := transport.Dialer{TLS: loadTestTLS(t, ca.Issue(t, dir, "n1"))}
	for _, proto := range []byte{transport.ProtoRaft, transport.ProtoRPC} {
		conn, err := d.Dial(plain.addr, proto, 30*time.Second)
		if err == nil {
			conn.Close()
			t.Fatalf("TLS dial of a plain cluster port succeeded (protocol %d)", proto)
		}
		if !strings.Contains(err.Error(), "tls handshake") {
			t.Fatalf("dial error = %v, want a TLS handshake failure", err)
		}
		// The plain port answers the handshake with something that is
		// not TLS: the dial fails on that, not on its timeout.
		if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("TLS dial of a plain port timed out (%v), want a prompt failure", err)
		}
	}
	poll.For(t, 5*time.Second, "the plain port counting both refusals", func() bool {
		return plain.node.Stats().ClusterConnsRejected.Load() == 2
	})
}

func TestClusterTLS_PlainMemberCannotJoinTLSCluster(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	m := startNetMember(t, "n1", listenLoopback(t), loadTestTLS(t, ca.Issue(t, dir, "n1")), nil)
	waitNetLeader(t, []*testMember{m})
	plain := startNetMember(t, "plain", listenLoopback(t), nil, func(c *Config) { c.Join = []string{m.addr} })
	poll.For(t, 10*time.Second, "join attempts refused", func() bool {
		return m.node.Stats().ClusterConnsRejected.Load() >= 2
	})
	if ids := configuredIDs(t, m); len(ids) != 1 {
		t.Fatalf("configuration = %v, want only n1", ids)
	}
	if ids := configuredIDs(t, plain); len(ids) != 0 {
		t.Fatalf("plain member's configuration = %v, want none: it was never admitted", ids)
	}
}

func TestLoadTLS_BadFilesAreRefusedClearly(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	f := ca.Issue(t, dir, "n1")
	other := ca.Issue(t, dir, "n2")
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pem")
	cases := []struct {
		name           string
		cert, key, ca  string
		wantMentioning string
	}{
		{"missing certificate", missing, f.KeyFile, f.CAFile, "missing.pem"},
		{"missing key", f.CertFile, missing, f.CAFile, "missing.pem"},
		{"key of another certificate", f.CertFile, other.KeyFile, f.CAFile, "private key does not match"},
		{"garbage certificate", garbage, f.KeyFile, f.CAFile, "garbage.pem"},
		{"missing CA file", f.CertFile, f.KeyFile, missing, "missing.pem"},
		{"CA file without certificates", f.CertFile, f.KeyFile, garbage, "holds no PEM certificate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadTLS(tc.cert, tc.key, tc.ca)
			if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.wantMentioning) {
				t.Fatalf("err = %v, want ErrBadConfig mentioning %q", err, tc.wantMentioning)
			}
		})
	}
	if _, err := LoadTLS(f.CertFile, f.KeyFile, f.CAFile); err != nil {
		t.Fatalf("good files: %v", err)
	}
}

func TestConfig_ValidateRefusesIncompleteTLS(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "members")
	good := loadTestTLS(t, ca.Issue(t, dir, "n1"))
	cases := []struct {
		name   string
		change func(*tls.Config)
		want   string
	}{
		{"no certificate", func(c *tls.Config) { c.Certificates = nil }, "no certificate"},
		{"no root CAs", func(c *tls.Config) { c.RootCAs = nil }, "CA pool"},
		{"no client CAs", func(c *tls.Config) { c.ClientCAs = nil }, "CA pool"},
		{"verification skipped", func(c *tls.Config) { c.InsecureSkipVerify = true }, "skip verification"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.ID, cfg.ClusterAddr = "n1", "127.0.0.1:1"
			cfg.TLS = good.Clone()
			tc.change(cfg.TLS)
			err := cfg.Validate()
			if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrBadConfig mentioning %q", err, tc.want)
			}
		})
	}
	cfg := DefaultConfig()
	cfg.ID, cfg.ClusterAddr, cfg.TLS = "n1", "127.0.0.1:1", good
	if err := cfg.Validate(); err != nil {
		t.Fatalf("complete TLS config refused: %v", err)
	}
}
