package cluster

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
	"github.com/raftns/raftns/cluster/lane"
)

// First bytes that select a protocol on the cluster port (Consul's RaftLayer
// pattern). They are part of the member-to-member wire format.
const (
	muxRaft byte = 0x01
	muxRPC  byte = 0x02
	// muxForward selects the forward lane (package lane); members
	// that predate it close such a connection, and the sender falls back
	// to muxRPC.
	muxForward byte = 0x03
)

// muxHandshakeTimeout bounds how long a new connection may take to finish
// its TLS handshake, when there is one, and send its first byte.
const muxHandshakeTimeout = 5 * time.Second

var errMuxClosed = errors.New("cluster: cluster port closed")

// mux accepts connections on the cluster port and hands each to the Raft
// transport or the internal RPC server according to its first byte. With
// tls set, a connection first completes a mutual TLS handshake and the
// first byte travels inside TLS; with key set, it then answers the
// cluster-key challenge before it may send the byte.
type mux struct {
	ln        net.Listener
	advertise net.Addr
	logger    hclog.Logger
	tls       *tls.Config
	key       []byte
	// rejected counts connections closed before a protocol was chosen.
	rejected *atomic.Uint64

	raft    *chanListener
	rpc     *chanListener
	forward *chanListener

	closeOnce sync.Once
	done      chan struct{}
}

func newMux(ln net.Listener, advertise string, d dialer, rejected *atomic.Uint64, logger hclog.Logger) (*mux, error) {
	adv, err := net.ResolveTCPAddr("tcp", advertise)
	if err != nil {
		return nil, err
	}
	m := &mux{ln: ln, advertise: adv, logger: logger, tls: serverTLS(d.tls), key: d.key, rejected: rejected, done: make(chan struct{})}
	m.raft = newChanListener(adv, m.done)
	m.rpc = newChanListener(adv, m.done)
	m.forward = newChanListener(adv, m.done)
	return m, nil
}

// serve runs the accept loop until close.
func (m *mux) serve() {
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

func (m *mux) route(conn net.Conn) {
	_ = conn.SetDeadline(time.Now().Add(muxHandshakeTimeout))
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
	var target *chanListener
	switch first[0] {
	case muxRaft:
		target = m.raft
	case muxRPC:
		target = m.rpc
	case muxForward:
		target = m.forward
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
func (m *mux) reject(conn net.Conn, msg string, err error) {
	m.rejected.Add(1)
	if errors.Is(err, io.EOF) {
		m.logger.Debug(msg, "remote", conn.RemoteAddr(), "error", err)
	} else {
		m.logger.Warn(msg, "remote", conn.RemoteAddr(), "error", err)
	}
	conn.Close()
}

func (m *mux) close() {
	m.closeOnce.Do(func() {
		close(m.done)
		m.ln.Close()
	})
}

// chanListener is a net.Listener fed by the mux.
type chanListener struct {
	addr  net.Addr
	conns chan net.Conn
	done  chan struct{}
}

func newChanListener(addr net.Addr, done chan struct{}) *chanListener {
	return &chanListener{addr: addr, conns: make(chan net.Conn), done: done}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, errMuxClosed
	}
}

// Close is a no-op: the mux owns the real listener.
func (l *chanListener) Close() error   { return nil }
func (l *chanListener) Addr() net.Addr { return l.addr }

// raftLayer is the raft.StreamLayer of the cluster port.
type raftLayer struct {
	*chanListener
	dialer dialer
}

// Dial opens a Raft connection to a member's cluster port.
func (l raftLayer) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	return l.dialer.dial(string(addr), muxRaft, timeout)
}

// rpcDialTimeout bounds connecting to another member's cluster port.
const rpcDialTimeout = 3 * time.Second

// dialer connects to other members' cluster ports. The Raft stream layer and
// the RPC pool both dial through it, so both use TLS when tls is set and
// prove the cluster key when key is set.
type dialer struct {
	tls *tls.Config
	key []byte
}

// dial connects to a cluster port, completes the TLS handshake if
// configured, and selects a protocol, all within timeout.
func (d dialer) dial(addr string, proto byte, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var nd net.Dialer
	conn, err := nd.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if d.tls != nil {
		tc, err := tlsClient(ctx, conn, d.tls, addr)
		if err != nil {
			conn.Close()
			return nil, err
		}
		conn = tc
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	if d.key != nil {
		if err := keyClientHandshake(conn, d.key); err != nil {
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

// newLanes returns the forward lanes of a member that dials other members
// through d.
func newLanes(d dialer, linkDown func(addr string) bool, logger hclog.Logger) *lane.Lanes {
	return lane.New(lane.Options{
		Dial:         func(addr string) (net.Conn, error) { return d.dial(addr, muxForward, rpcDialTimeout) },
		HelloTimeout: rpcDialTimeout, StaleAfter: leaderSilenceLimit, LinkDown: linkDown, Logger: logger,
	})
}
