package main

import (
	"crypto/tls"
	"encoding/binary"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pires/go-proxyproto"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
	"github.com/raftns/raftns/transport/tlstest"
)

// routeOver sends GET_ROUTEINFO_BY_TOPIC on c and returns the answer; ok is
// false when the member closed the connection instead.
func routeOver(t *testing.T, c net.Conn, topic string) (*remoting.Command, bool) {
	t.Helper()
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	frame, err := remoting.EncodeFrame(&remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA",
		Version: 513, Opaque: 7, ExtFields: map[string]string{"topic": topic}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(frame); err != nil {
		return nil, false
	}
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		return nil, false
	}
	buf := make([]byte, binary.BigEndian.Uint32(n[:]))
	if _, err := io.ReadFull(c, buf); err != nil {
		return nil, false
	}
	resp, err := remoting.DecodeFrame(buf)
	if err != nil {
		t.Fatal(err)
	}
	return resp, true
}

func dialTCP(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestProcess_ClientPortTLSPermissiveProxyAndReload runs a member with TLS
// permissive and the PROXY protocol on: a plain and a TLS client get the
// route a broker registered through a PROXY header, the member logs the
// address the header named, and SIGHUP switches to new certificates.
func TestProcess_ClientPortTLSPermissiveProxyAndReload(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "clients")
	f := ca.Issue(t, dir, "ns")
	p := newProc(t, "tls1", "--tls-server-mode", "permissive", "--tls-cert", f.CertFile, "--tls-key", f.KeyFile,
		"--proxy-protocol", "true", "--tls-reload-interval", "0")
	p.start()
	p.waitReady()

	// A broker behind a load balancer: PROXY v2 header, then a plain registration.
	c := dialTCP(t, p.ClientAddr)
	src := &net.TCPAddr{IP: net.IPv4(203, 0, 113, 9), Port: 45678}
	if _, err := proxyproto.HeaderProxyFromAddrs(2, src, c.RemoteAddr()).WriteTo(c); err != nil {
		t.Fatal(err)
	}
	reg := brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "TopicTLS")
	b, err := body.EncodeRegisterBody(&reg.Body, false, 513)
	if err != nil {
		t.Fatal(err)
	}
	frame, _ := remoting.EncodeFrame(&remoting.Command{Code: remoting.RegisterBroker, Language: "JAVA", Version: 513, Opaque: 1,
		ExtFields: map[string]string{"brokerName": reg.BrokerName, "brokerAddr": reg.BrokerAddr, "clusterName": reg.ClusterName,
			"haServerAddr": reg.HaServerAddr, "brokerId": "0"}, Body: b})
	if _, err := c.Write(frame); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	poll.For(t, 20*time.Second, "the proxied address in the log", func() bool {
		return strings.Contains(p.Log(), "remote=203.0.113.9:45678")
	})

	if resp, ok := routeOver(t, dialTCP(t, p.ClientAddr), "TopicTLS"); !ok || resp.Code != remoting.Success {
		t.Fatalf("plain client in permissive mode: %+v ok=%v", resp, ok)
	}
	if resp, ok := routeOver(t, tls.Client(dialTCP(t, p.ClientAddr), tlstest.ClientConfig(t, ca.CertFile)), "TopicTLS"); !ok || resp.Code != remoting.Success {
		t.Fatalf("TLS client: %+v ok=%v", resp, ok)
	}

	// New certificates from another CA under the same file names, then SIGHUP.
	dir2 := t.TempDir()
	ca2 := tlstest.NewCA(t, dir2, "renewed")
	f2 := ca2.Issue(t, dir2, "ns")
	for _, pair := range [][2]string{{f2.CertFile, f.CertFile}, {f2.KeyFile, f.KeyFile}} {
		data, _ := os.ReadFile(pair[0])
		if err := os.WriteFile(pair[1], data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Kill(p.Pid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	poll.For(t, 20*time.Second, "the reload", func() bool { return strings.Contains(p.Log(), "client TLS certificates reloaded") })
	if resp, ok := routeOver(t, tls.Client(dialTCP(t, p.ClientAddr), tlstest.ClientConfig(t, ca2.CertFile)), "TopicTLS"); !ok || resp.Code != remoting.Success {
		t.Fatalf("TLS client trusting the renewed CA: %+v ok=%v", resp, ok)
	}
	if p.Exited() {
		t.Fatal("SIGHUP stopped the member")
	}
}

// TestProcess_ClientPortTLSEnforcing refuses plain clients.
func TestProcess_ClientPortTLSEnforcing(t *testing.T) {
	dir := t.TempDir()
	ca := tlstest.NewCA(t, dir, "clients")
	f := ca.Issue(t, dir, "ns")
	props := dir + "/tls.properties"
	if err := os.WriteFile(props, []byte("tls.server.mode=enforcing\ntls.server.certPath="+f.CertFile+
		"\ntls.server.keyPath="+f.KeyFile+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newProc(t, "tls2", "--tls-config-file", props)
	p.start()
	p.waitReady()
	if _, ok := routeOver(t, dialTCP(t, p.ClientAddr), "T"); ok {
		t.Fatal("a plain client was answered in enforcing mode")
	}
	if resp, ok := routeOver(t, tls.Client(dialTCP(t, p.ClientAddr), tlstest.ClientConfig(t, ca.CertFile)), "T"); !ok || resp.Code != remoting.TopicNotExist {
		t.Fatalf("TLS client: %+v ok=%v", resp, ok)
	}
}
