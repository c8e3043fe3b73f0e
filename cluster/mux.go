package cluster

import (
	"errors"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
)

// First bytes that select a protocol on the cluster port (Consul's RaftLayer
// pattern). They are part of the member-to-member wire format.
const (
	muxRaft byte = 0x01
	muxRPC  byte = 0x02
)

// muxHandshakeTimeout bounds how long a new connection may take to send its
// first byte.
const muxHandshakeTimeout = 5 * time.Second

var errMuxClosed = errors.New("cluster: cluster port closed")

// mux accepts connections on the cluster port and hands each to the Raft
// transport or the internal RPC server according to its first byte.
type mux struct {
	ln        net.Listener
	advertise net.Addr
	logger    hclog.Logger

	raft *chanListener
	rpc  *chanListener

	closeOnce sync.Once
	done      chan struct{}
}

func newMux(ln net.Listener, advertise string, logger hclog.Logger) (*mux, error) {
	adv, err := net.ResolveTCPAddr("tcp", advertise)
	if err != nil {
		return nil, err
	}
	m := &mux{ln: ln, advertise: adv, logger: logger, done: make(chan struct{})}
	m.raft = newChanListener(adv, m.done)
	m.rpc = newChanListener(adv, m.done)
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
	var first [1]byte
	_ = conn.SetReadDeadline(time.Now().Add(muxHandshakeTimeout))
	if _, err := conn.Read(first[:]); err != nil {
		conn.Close()
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	var target *chanListener
	switch first[0] {
	case muxRaft:
		target = m.raft
	case muxRPC:
		target = m.rpc
	default:
		m.logger.Warn("unknown protocol on cluster port", "byte", first[0], "remote", conn.RemoteAddr())
		conn.Close()
		return
	}
	select {
	case target.conns <- conn:
	case <-m.done:
		conn.Close()
	}
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
type raftLayer struct{ *chanListener }

// Dial opens a Raft connection to a member's cluster port.
func (l raftLayer) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	return dialMux(string(addr), muxRaft, timeout)
}

// dialMux connects to a cluster port and selects a protocol.
func dialMux(addr string, proto byte, timeout time.Duration) (net.Conn, error) {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	_ = conn.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := conn.Write([]byte{proto}); err != nil {
		conn.Close()
		return nil, err
	}
	_ = conn.SetWriteDeadline(time.Time{})
	return conn, nil
}
