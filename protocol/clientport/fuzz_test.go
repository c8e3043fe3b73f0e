package clientport

import (
	"net"
	"testing"
	"time"
)

// FuzzPrepare feeds arbitrary first bytes to connection preparation with
// the PROXY protocol and permissive TLS on: it must answer (a connection or a
// refusal) without panicking.
func FuzzPrepare(f *testing.F) {
	f.Add([]byte("PROXY TCP4 203.0.113.7 198.51.100.1 40123 9876\r\n\x00\x00\x00\x10"))
	f.Add([]byte("PROXY UNKNOWN\r\n"))
	f.Add(append([]byte{0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A, 0x21, 0x11, 0x00, 0x0C},
		203, 0, 113, 7, 198, 51, 100, 1, 0x9c, 0x7b, 0x26, 0x94))
	f.Add([]byte{0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5})
	f.Add([]byte{0, 0, 0, 20})
	certs, err := NewCertStore(TLSFiles{SelfSigned: true})
	if err != nil {
		f.Fatal(err)
	}
	l := &Listener{cfg: Config{TLSMode: TLSPermissive, Certs: certs, ProxyProtocol: true, PrepareTimeout: 200 * time.Millisecond}}
	f.Fuzz(func(t *testing.T, data []byte) {
		server, client := net.Pipe()
		go func() {
			client.Write(data)
			client.Close()
		}()
		c, _, _ := l.prepare(server)
		if c != nil {
			c.Close()
		}
		server.Close()
	})
}
