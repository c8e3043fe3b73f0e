package clientport

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/pires/go-proxyproto"
)

// tlsHandshakeByte opens every TLS connection (a handshake record).
const tlsHandshakeByte = 0x16

// Config configures a Listener.
type Config struct {
	// TLSMode is tls.server.mode; with TLSPermissive or TLSEnforcing,
	// Certs must be set.
	TLSMode TLSMode
	Certs   *CertStore
	// ProxyProtocol accepts a PROXY protocol v1 or v2 header at the start
	// of a connection (optional per connection, as the 5.x server does) and
	// reports the address it names as the connection's remote address.
	ProxyProtocol bool
	// PrepareTimeout bounds reading the header and the first byte and the
	// TLS handshake (default 10 s).
	PrepareTimeout time.Duration
	// MaxPreparing bounds connections being prepared at once; more are
	// closed at once (default 1024).
	MaxPreparing int
	// Logger receives a line per refused connection; nil logs nothing.
	Logger hclog.Logger
	// OnRefused, when set, is called once per connection closed during
	// preparation, with the reason, for metrics.
	OnRefused func(reason string)
}

// Needed reports whether cfg changes anything: without TLS and the PROXY
// protocol the inner listener can be used as it is.
func (cfg Config) Needed() bool { return cfg.TLSMode != TLSDisabled || cfg.ProxyProtocol }

// Listener wraps the client port's listener: Accept returns connections
// that are ready for the remoting protocol.
type Listener struct {
	inner net.Listener
	cfg   Config
	ready chan net.Conn
	slots chan struct{}

	closeOnce sync.Once
	closed    chan struct{}
	acceptErr error
	wg        sync.WaitGroup

	mu        sync.Mutex
	preparing map[net.Conn]struct{} // closed by Close
}

// Listen wraps inner. Close closes inner too.
func Listen(inner net.Listener, cfg Config) (*Listener, error) {
	if cfg.TLSMode != TLSDisabled && cfg.Certs == nil {
		return nil, errors.New("clientport: TLS mode " + cfg.TLSMode.String() + " needs a certificate")
	}
	if cfg.PrepareTimeout <= 0 {
		cfg.PrepareTimeout = 10 * time.Second
	}
	if cfg.MaxPreparing <= 0 {
		cfg.MaxPreparing = 1024
	}
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	l := &Listener{inner: inner, cfg: cfg, ready: make(chan net.Conn), slots: make(chan struct{}, cfg.MaxPreparing),
		closed: make(chan struct{}), preparing: map[net.Conn]struct{}{}}
	l.wg.Add(1)
	go l.acceptLoop()
	return l, nil
}

// Accept returns the next prepared connection.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.closed:
		if l.acceptErr != nil {
			return nil, l.acceptErr
		}
		return nil, net.ErrClosed
	}
}

// Close stops accepting; connections being prepared are closed.
func (l *Listener) Close() error {
	err := l.inner.Close()
	l.mu.Lock()
	for nc := range l.preparing {
		nc.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
	return err
}

// Addr is the inner listener's address.
func (l *Listener) Addr() net.Addr { return l.inner.Addr() }

func (l *Listener) acceptLoop() {
	defer l.wg.Done()
	var tempDelay time.Duration
	for {
		nc, err := l.inner.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				tempDelay = min(max(2*tempDelay, 5*time.Millisecond), time.Second)
				time.Sleep(tempDelay)
				continue
			}
			if !errors.Is(err, net.ErrClosed) {
				l.acceptErr = err
			}
			l.closeOnce.Do(func() { close(l.closed) })
			return
		}
		tempDelay = 0
		select {
		case l.slots <- struct{}{}:
		default:
			l.refuse(nc, "too many connections being prepared")
			continue
		}
		l.mu.Lock()
		l.preparing[nc] = struct{}{}
		l.mu.Unlock()
		l.wg.Add(1)
		go l.prepareAndHandOver(nc)
	}
}

func (l *Listener) prepareAndHandOver(nc net.Conn) {
	defer l.wg.Done()
	c, reason, err := l.prepare(nc)
	<-l.slots
	l.mu.Lock()
	delete(l.preparing, nc)
	l.mu.Unlock()
	if c == nil {
		l.refuse(nc, reason)
		if err != nil {
			l.cfg.Logger.Debug("preparation error", "remote", nc.RemoteAddr().String(), "error", err)
		}
		return
	}
	select {
	case l.ready <- c:
	case <-l.closed:
		c.Close()
	}
}

func (l *Listener) refuse(nc net.Conn, reason string) {
	l.cfg.Logger.Warn("client connection refused", "remote", nc.RemoteAddr().String(), "reason", reason)
	if l.cfg.OnRefused != nil {
		l.cfg.OnRefused(reason)
	}
	nc.Close()
}

// prepare reads the optional PROXY header and the first byte, then sets up
// TLS or plain as the mode says. A nil conn comes with the reason.
func (l *Listener) prepare(nc net.Conn) (net.Conn, string, error) {
	deadline := time.Now().Add(l.cfg.PrepareTimeout)
	if err := nc.SetDeadline(deadline); err != nil {
		return nil, "set deadline", err
	}
	br := bufio.NewReaderSize(nc, 256)
	c := &preparedConn{Conn: nc, br: br, remote: nc.RemoteAddr()}
	if l.cfg.ProxyProtocol {
		h, err := proxyproto.Read(br)
		switch {
		case errors.Is(err, proxyproto.ErrNoProxyProtocol):
		case err != nil:
			return nil, "bad PROXY protocol header", err
		default:
			if src, _, ok := h.TCPAddrs(); ok {
				c.remote = src
			}
		}
	}
	first, err := br.Peek(1)
	if err != nil {
		return nil, "closed before sending anything", err
	}
	isTLS := first[0] == tlsHandshakeByte
	switch {
	case isTLS && l.cfg.TLSMode == TLSDisabled:
		return nil, "TLS handshake while TLS is disabled", nil
	case !isTLS && l.cfg.TLSMode == TLSEnforcing:
		return nil, "plain connection while TLS is enforced", nil
	case !isTLS:
		return c, "", nc.SetDeadline(time.Time{})
	}
	tc := tls.Server(c, l.cfg.Certs.Config())
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, "TLS handshake failed", err
	}
	if err := nc.SetDeadline(time.Time{}); err != nil {
		return nil, "clear deadline", err
	}
	return &tlsConn{Conn: tc, remote: c.remote}, "", nil
}

// preparedConn reads what preparation buffered before the rest of the
// connection and reports the PROXY protocol's client address, if any.
type preparedConn struct {
	net.Conn
	br     *bufio.Reader
	remote net.Addr
}

func (c *preparedConn) Read(p []byte) (int, error) {
	if c.br != nil {
		if c.br.Buffered() > 0 {
			return c.br.Read(p)
		}
		c.br = nil // drop the buffer once drained
	}
	return c.Conn.Read(p)
}

func (c *preparedConn) RemoteAddr() net.Addr { return c.remote }

// tlsConn is a server TLS connection reporting the PROXY protocol's client
// address.
type tlsConn struct {
	*tls.Conn
	remote net.Addr
}

func (c *tlsConn) RemoteAddr() net.Addr { return c.remote }
