package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
)

// First bytes that select a protocol on the cluster port (Consul's RaftLayer
// pattern). They are part of the member-to-member wire format.
const (
	ProtoRaft byte = 0x01
	ProtoRPC  byte = 0x02
	// ProtoForward selects the forward lane (package lane); members
	// that predate it close such a connection, and the sender falls back
	// to ProtoRPC.
	ProtoForward byte = 0x03
)

// HandshakeTimeout bounds how long a new connection may take to finish
// its TLS handshake, when there is one, and send its first byte.
const HandshakeTimeout = 5 * time.Second

// ErrClosed is what the listeners of a closed Mux return from Accept.
var ErrClosed = errors.New("cluster: cluster port closed")

// Mux accepts connections on the cluster port and hands each to the Raft
// transport or the internal RPC server according to its first byte. With
// tls set, a connection first completes a mutual TLS handshake and the
// first byte travels inside TLS; with key set, it then answers the
// cluster-key challenge before it may send the byte.
type Mux struct {
	ln        net.Listener
	advertise net.Addr
	logger    hclog.Logger
	tls       *tls.Config
	key       []byte
	// rejected counts connections closed before a protocol was chosen.
	rejected *atomic.Uint64

	// Raft, RPC and Forward take the connections of each protocol; a nil
	// Forward refuses the forward lane, as a member that predates it.
	Raft    *ChanListener
	RPC     *ChanListener
	Forward *ChanListener

	closeOnce sync.Once
	done      chan struct{}
}

// NewMux returns the mux of the cluster port ln, whose address other
// members know as advertise; it handshakes with d's TLS and key and counts
// the connections it closes before a protocol was chosen in rejected.
func NewMux(ln net.Listener, advertise string, d Dialer, rejected *atomic.Uint64, logger hclog.Logger) (*Mux, error) {
	adv, err := net.ResolveTCPAddr("tcp", advertise)
	if err != nil {
		return nil, err
	}
	m := &Mux{ln: ln, advertise: adv, logger: logger, tls: serverTLS(d.TLS), key: d.Key, rejected: rejected, done: make(chan struct{})}
	m.Raft = NewChanListener(adv, m.done)
	m.RPC = NewChanListener(adv, m.done)
	m.Forward = NewChanListener(adv, m.done)
	return m, nil
}

// Serve runs the accept loop until Close.
func (m *Mux) Serve() {
	for {
		conn, err := m.ln.Accept()
		if err != nil {
			select {
			case <-m.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			m.logger.Error("cluster port accept failed", "error", err)
			return
		}
		go m.route(conn)
	}
}

func (m *Mux) route(conn net.Conn) {
	_ = conn.SetDeadline(time.Now().Add(HandshakeTimeout))
	if m.tls != nil {
		tc := tls.Server(conn, m.tls)
		if err := tc.Handshake(); err != nil {
			m.reject(conn, "cluster port TLS handshake failed", err)
			return
		}
		conn = tc
	}
	if m.key != nil {
		if err := keyServerHandshake(conn, m.key); err != nil {
			m.reject(conn, "cluster port connection without the cluster key refused", err)
			return
		}
	}
	var first [1]byte
	if _, err := io.ReadFull(conn, first[:]); err != nil {
		m.reject(conn, "cluster port connection sent no protocol byte", err)
		return
	}
	_ = conn.SetDeadline(time.Time{})
	var target *ChanListener
	switch first[0] {
	case ProtoRaft:
		target = m.Raft
	case ProtoRPC:
		target = m.RPC
	case ProtoForward:
		target = m.Forward
	}
	if target == nil {
		m.logger.Warn("unknown protocol on cluster port", "byte", first[0], "remote", conn.RemoteAddr())
		m.rejected.Add(1)
		conn.Close()
		return
	}
	select {
	case target.conns <- conn:
	case <-m.done:
		conn.Close()
	}
}

// reject closes a connection that failed before choosing a protocol. A
// connection closed without a byte (a port probe) is logged at debug, any
// other failure (a plain client on a TLS port, a certificate the CA did not
// sign, a timeout) at warn.
func (m *Mux) reject(conn net.Conn, msg string, err error) {
	m.rejected.Add(1)
	if errors.Is(err, io.EOF) {
		m.logger.Debug(msg, "remote", conn.RemoteAddr(), "error", err)
	} else {
		m.logger.Warn(msg, "remote", conn.RemoteAddr(), "error", err)
	}
	conn.Close()
}

// Close stops the accept loop and closes the cluster port.
func (m *Mux) Close() {
	m.closeOnce.Do(func() {
		close(m.done)
		m.ln.Close()
	})
}

// ChanListener is a net.Listener fed by the mux.
type ChanListener struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
}

// NewChanListener returns a listener at addr whose Accept fails with
// ErrClosed once done is closed.
func NewChanListener(addr net.Addr, done chan struct{}) *ChanListener {
	return &ChanListener{addr: addr, conns: make(chan net.Conn), done: done}
}

// Accept returns the next connection the mux routed here.
func (l *ChanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, ErrClosed
	}
}

// Close is a no-op: the mux owns the real listener.
func (l *ChanListener) Close() error { return nil }

// Addr is the cluster port's advertised address.
func (l *ChanListener) Addr() net.Addr { return l.addr }

// RaftLayer is the raft.StreamLayer of the cluster port.
type RaftLayer struct {
	*ChanListener
	Dialer Dialer
}

// Dial opens a Raft connection to a member's cluster port.
func (l RaftLayer) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	return l.Dialer.Dial(string(addr), ProtoRaft, timeout)
}

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
