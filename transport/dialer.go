package transport

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"
)

// DialTimeout bounds connecting to another member's cluster port.
const DialTimeout = 3 * time.Second

// Dialer connects to other members' cluster ports. The Raft stream layer and
// the RPC pool both dial through it, so both use TLS when TLS is set and
// prove the cluster key when Key is set.
type Dialer struct {
	TLS *tls.Config
	Key []byte
}

// Dial connects to a cluster port, completes the TLS handshake if
// configured, and selects a protocol, all within timeout.
func (d Dialer) Dial(addr string, proto byte, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var nd net.Dialer
	conn, err := nd.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if d.TLS != nil {
		tc, err := tlsClient(ctx, conn, d.TLS, addr)
		if err != nil {
			conn.Close()
			return nil, err
		}
		conn = tc
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	if d.Key != nil {
		if err := keyClientHandshake(conn, d.Key); err != nil {
			conn.Close()
			return nil, fmt.Errorf("cluster key handshake with %s: %w", addr, err)
		}
	}
	if _, err := conn.Write([]byte{proto}); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetDeadline(time.Time{})
	return conn, nil
}
