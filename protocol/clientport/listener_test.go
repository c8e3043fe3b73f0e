package clientport

import (
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/transport/tlstest"
)

// echoServer accepts through a Listener and echoes, on each connection,
// its remote address followed by a newline and then whatever it reads.
func echoServer(t *testing.T, cfg Config) (*Listener, string) {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Listen(inner, cfg)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.WriteString(c, c.RemoteAddr().String()+"\n")
				io.Copy(c, c)
			}()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return l, inner.Addr().String()
}

// roundTrip sends msg on c and returns the server's first line and echo;
// ok is false when the server closed the connection instead.
func roundTrip(t *testing.T, c net.Conn, msg string) (remote, echo string, ok bool) {
	t.Helper()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, msg); err != nil {
		return "", "", false
	}
	buf := make([]byte, 0, 256)
	tmp := make([]byte, 256)
	for {
		n, err := c.Read(tmp)
		buf = append(buf, tmp[:n]...)
		if i := bytes.IndexByte(buf, '\n'); i >= 0 && len(buf)-i-1 >= len(msg) {
			return string(buf[:i]), string(buf[i+1:]), true
		}
		if err != nil {
			return "", "", false
		}
	}
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func certs(t *testing.T) (tlstest.Files, *CertStore) {
	t.Helper()
	dir := t.TempDir()
	files := tlstest.NewCA(t, dir, "ns").Issue(t, dir, "ns")
	cs, err := NewCertStore(TLSFiles{CertFile: files.CertFile, KeyFile: files.KeyFile})
	if err != nil {
		t.Fatal(err)
	}
	return files, cs
}

func tlsClient(t *testing.T, c net.Conn, caFile string) *tls.Conn {
	t.Helper()
	return tls.Client(c, tlstest.ClientConfig(t, caFile))
}

func TestListener_TLSModes(t *testing.T) {
	files, cs := certs(t)
	for _, tc := range []struct {
		mode           TLSMode
		plainOK, tlsOK bool
	}{
		{TLSDisabled, true, false},
		{TLSPermissive, true, true},
		{TLSEnforcing, false, true},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			var refused []string
			cfg := Config{TLSMode: tc.mode, OnRefused: func(r string) { refused = append(refused, r) }}
			if tc.mode != TLSDisabled {
				cfg.Certs = cs
			}
			_, addr := echoServer(t, cfg)
			_, echo, ok := roundTrip(t, dial(t, addr), "plain")
			if ok != tc.plainOK || (ok && echo != "plain") {
				t.Errorf("plain: ok=%v echo=%q, want ok=%v", ok, echo, tc.plainOK)
			}
			_, echo, ok = roundTrip(t, tlsClient(t, dial(t, addr), files.CAFile), "secret")
			if ok != tc.tlsOK || (ok && echo != "secret") {
				t.Errorf("tls: ok=%v echo=%q, want ok=%v", ok, echo, tc.tlsOK)
			}
		})
	}
}

func TestListener_ProxyProtocol(t *testing.T) {
	files, cs := certs(t)
	_, addr := echoServer(t, Config{TLSMode: TLSPermissive, Certs: cs, ProxyProtocol: true})
	src := &net.TCPAddr{IP: net.IPv4(203, 0, 113, 7), Port: 40123}
	dst := &net.TCPAddr{IP: net.IPv4(198, 51, 100, 1), Port: 9876}
	for _, version := range []byte{1, 2} {
		for _, useTLS := range []bool{false, true} {
			c := dial(t, addr)
			if _, err := proxyproto.HeaderProxyFromAddrs(version, src, dst).WriteTo(c); err != nil {
				t.Fatal(err)
			}
			var conn net.Conn = c
			if useTLS {
				conn = tlsClient(t, c, files.CAFile)
			}
			remote, echo, ok := roundTrip(t, conn, "hello")
			if !ok || remote != src.String() || echo != "hello" {
				t.Errorf("v%d tls=%v: remote %q echo %q ok %v, want %s", version, useTLS, remote, echo, ok, src)
			}
		}
	}
	// Without a header the connection's own address is reported.
	c := dial(t, addr)
	if remote, _, ok := roundTrip(t, c, "x"); !ok || remote != c.LocalAddr().String() {
		t.Errorf("no header: remote %q, want %s", remote, c.LocalAddr())
	}
	// A damaged header closes the connection.
	if _, _, ok := roundTrip(t, dial(t, addr), "PROXY TCP4 nonsense\r\n"); ok {
		t.Error("a malformed PROXY header was accepted")
	}
}

func TestListener_ProxyHeaderIgnoredWhenOff(t *testing.T) {
	_, addr := echoServer(t, Config{})
	c := dial(t, addr)
	remote, echo, ok := roundTrip(t, c, "PROXY TCP4 203.0.113.7 198.51.100.1 40123 9876\r\n")
	if !ok || remote != c.LocalAddr().String() || echo == "" {
		t.Fatalf("remote %q ok %v: a PROXY header must be plain data when the option is off", remote, ok)
	}
}

func TestListener_SilentClientsAreBounded(t *testing.T) {
	var refused = make(chan string, 16)
	_, addr := echoServer(t, Config{TLSMode: TLSDisabled, ProxyProtocol: true, MaxPreparing: 1,
		PrepareTimeout: 300 * time.Millisecond, OnRefused: func(r string) { refused <- r }})
	dial(t, addr) // connects and never sends anything
	// The second connection finds the one preparation slot taken or,
	// later, gets through once the first timed out: either way the silent
	// one is closed by its deadline.
	select {
	case r := <-refused:
		if r == "" {
			t.Fatal("empty reason")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a silent connection was never closed")
	}
	_, echo, ok := roundTrip(t, dial(t, addr), "after")
	if !ok || echo != "after" {
		t.Fatalf("listener unusable after a silent client: %q %v", echo, ok)
	}
}

func TestCertStore_Reload(t *testing.T) {
	dir := t.TempDir()
	ca1 := tlstest.NewCA(t, dir, "one")
	f := ca1.Issue(t, dir, "ns")
	cs, err := NewCertStore(TLSFiles{CertFile: f.CertFile, KeyFile: f.KeyFile})
	if err != nil {
		t.Fatal(err)
	}
	_, addr := echoServer(t, Config{TLSMode: TLSEnforcing, Certs: cs})
	if _, _, ok := roundTrip(t, tlsClient(t, dial(t, addr), ca1.CertFile), "a"); !ok {
		t.Fatal("first certificate not served")
	}
	if cs.Changed() {
		t.Fatal("Changed before any change")
	}
	// A new CA issues the same file names; until reloaded the old one serves.
	dir2 := t.TempDir()
	ca2 := tlstest.NewCA(t, dir2, "two")
	f2 := ca2.Issue(t, dir2, "ns")
	for _, p := range [][2]string{{f2.CertFile, f.CertFile}, {f2.KeyFile, f.KeyFile}} {
		b, _ := os.ReadFile(p[0])
		if err := os.WriteFile(p[1], b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !cs.Changed() {
		t.Fatal("Changed is false after the files were replaced")
	}
	if _, _, ok := roundTrip(t, tlsClient(t, dial(t, addr), ca2.CertFile), "b"); ok {
		t.Fatal("new certificate served before the reload")
	}
	if err := cs.Reload(); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := roundTrip(t, tlsClient(t, dial(t, addr), ca2.CertFile), "c"); !ok {
		t.Fatal("new certificate not served after the reload")
	}
	// A broken file keeps the current certificate.
	if err := os.WriteFile(f.KeyFile, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cs.Reload(); err == nil {
		t.Fatal("a garbage key reloaded without error")
	}
	if _, _, ok := roundTrip(t, tlsClient(t, dial(t, addr), ca2.CertFile), "d"); !ok {
		t.Fatal("a failed reload dropped the working certificate")
	}
}

func TestCertStore_ClientAuth(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "ns")
	f := ca.Issue(t, dir, "ns")
	other := tlstest.NewCA(t, t.TempDir(), "other")
	cs, err := NewCertStore(TLSFiles{CertFile: f.CertFile, KeyFile: f.KeyFile, ClientCAFile: ca.CertFile, ClientAuth: ClientAuthRequire})
	if err != nil {
		t.Fatal(err)
	}
	_, addr := echoServer(t, Config{TLSMode: TLSEnforcing, Certs: cs})
	if _, _, ok := roundTrip(t, tlsClient(t, dial(t, addr), ca.CertFile), "no cert"); ok {
		t.Fatal("client without certificate accepted under require")
	}
	withCert := func(cf tlstest.Files) *tls.Conn {
		cert, err := tls.LoadX509KeyPair(cf.CertFile, cf.KeyFile)
		if err != nil {
			t.Fatal(err)
		}
		cfg := tlstest.ClientConfig(t, ca.CertFile)
		cfg.Certificates = []tls.Certificate{cert}
		return tls.Client(dial(t, addr), cfg)
	}
	if _, _, ok := roundTrip(t, withCert(ca.Issue(t, dir, "client")), "good"); !ok {
		t.Fatal("client certificate of the trusted CA refused")
	}
	if _, _, ok := roundTrip(t, withCert(other.Issue(t, t.TempDir(), "client")), "bad"); ok {
		t.Fatal("client certificate of another CA accepted")
	}
}

func TestParseModes(t *testing.T) {
	for in, want := range map[string]TLSMode{"disabled": TLSDisabled, "PERMISSIVE": TLSPermissive, "enforcing": TLSEnforcing} {
		if got, err := ParseTLSMode(in); err != nil || got != want {
			t.Errorf("ParseTLSMode(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseTLSMode("strict"); err == nil {
		t.Error("ParseTLSMode accepted strict")
	}
	if _, err := ParseClientAuth("sometimes"); err == nil {
		t.Error("ParseClientAuth accepted sometimes")
	}
	if _, err := NewCertStore(TLSFiles{}); err == nil {
		t.Error("NewCertStore without files accepted")
	}
	if cs, err := NewCertStore(TLSFiles{SelfSigned: true}); err != nil || cs.Config() == nil {
		t.Errorf("self-signed: %v", err)
	}
}

// TestCertStore_WatchReloadsChangedFiles: replacing the files is noticed by
// the watch, which reloads and reports it.
func TestCertStore_WatchReloadsChangedFiles(t *testing.T) {
	dir := t.TempDir()
	f := tlstest.NewCA(t, dir, "one").Issue(t, dir, "ns")
	cs, err := NewCertStore(TLSFiles{CertFile: f.CertFile, KeyFile: f.KeyFile})
	if err != nil {
		t.Fatal(err)
	}
	before := cs.Config()
	var reported atomic.Bool
	stop := make(chan struct{})
	defer close(stop)
	go cs.Watch(10*time.Millisecond, stop, func(err error) {
		// A reload may fail while the files are half written; the next
		// change retries it.
		if err == nil {
			reported.Store(true)
		}
	})
	dir2 := t.TempDir()
	f2 := tlstest.NewCA(t, dir2, "two").Issue(t, dir2, "ns")
	for _, p := range [][2]string{{f2.KeyFile, f.KeyFile}, {f2.CertFile, f.CertFile}} {
		b, _ := os.ReadFile(p[0])
		if err := os.WriteFile(p[1], b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	poll.For(t, 10*time.Second, "the watch to reload the replaced files and report it", func() bool {
		return cs.Config() != before && reported.Load()
	})
}
