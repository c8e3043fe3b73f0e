package remoting

import (
	"bufio"
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// connIDs numbers connections process-wide, so IDs never repeat.
var connIDs atomic.Uint64

// clockBase anchors activity times to the monotonic clock.
var clockBase = time.Now()

// Conn is one accepted connection. The application may keep it (for
// example as the connection a broker registered on) and attach state to it
// with SetValue; its methods are safe for concurrent use.
type Conn struct {
	id     uint64
	srv    *Server
	nc     net.Conn
	remote string

	ctx    context.Context // cancelled on close; handed to handlers
	cancel context.CancelFunc
	done   chan struct{} // closed on close

	br       *bufio.Reader
	deadline time.Time // read deadline in force; read loop only

	out        chan outFrame // responses waiting for the writer
	writerDone chan struct{}
	// wmu is held while frames are written, by the writer goroutine for
	// each batch and by the read goroutine for a response it answered
	// inline (conn_inline.go); bw and wbuf are used under it only.
	wmu  sync.Mutex
	bw   *bufio.Writer
	wbuf []byte

	sem      chan struct{} // one token per request in flight
	handlers sync.WaitGroup
	work     chan queuedRequest // to a worker waiting for the next request
	workers  sync.WaitGroup     // worker goroutines
	idle     atomic.Int32       // workers waiting on work
	inflight atomic.Int32
	// lastActive is the monotonic time of the last frame read or
	// responses flushed, in nanoseconds since clockBase.
	lastActive atomic.Int64

	closeOnce sync.Once
	errMu     sync.Mutex
	err       error

	valMu sync.Mutex
	val   any
}

// outFrame is a response queued for the writer, with the fields the server
// imposes on it (the handler's Command may be shared and is not modified).
type outFrame struct {
	resp   *Command
	opaque int32
	st     SerializeType
}

// readBufferSize is big enough for every NameServer header, so ReadCommand
// decodes them in place.
const readBufferSize = 8 << 10

func newConn(s *Server, nc net.Conn) *Conn {
	ctx, cancel := context.WithCancel(s.ctx)
	c := &Conn{
		id:         connIDs.Add(1),
		srv:        s,
		nc:         nc,
		remote:     nc.RemoteAddr().String(),
		ctx:        ctx,
		cancel:     cancel,
		done:       make(chan struct{}),
		br:         bufio.NewReaderSize(nc, readBufferSize),
		out:        make(chan outFrame, s.cfg.MaxInflightPerConn),
		writerDone: make(chan struct{}),
		sem:        make(chan struct{}, s.cfg.MaxInflightPerConn),
		work:       make(chan queuedRequest),
	}
	c.touch()
	return c
}

// ID returns the connection's process-wide unique number.
func (c *Conn) ID() uint64 { return c.id }

// RemoteAddr returns the peer's address as host:port.
func (c *Conn) RemoteAddr() string { return c.remote }

// LocalAddr returns the local address of the connection.
func (c *Conn) LocalAddr() string { return c.nc.LocalAddr().String() }

// Context returns a context cancelled when the connection closes.
func (c *Conn) Context() context.Context { return c.ctx }

// Close closes the connection with reason ErrConnClosed. Requests in flight
// see their context cancelled and their responses are dropped.
func (c *Conn) Close() error {
	c.closeWith(ErrConnClosed)
	return nil
}

// Err returns why the connection closed (io.EOF when the peer closed it,
// ErrIdleTimeout, a frame decoding error, a write error, ErrConnClosed,
// ErrServerClosed), or nil while it is open.
func (c *Conn) Err() error {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return c.err
}

// LastActivity returns when a frame was last read from or written to the
// connection.
func (c *Conn) LastActivity() time.Time {
	return clockBase.Add(time.Duration(c.lastActive.Load()))
}

// InFlight returns the number of requests being handled.
func (c *Conn) InFlight() int { return int(c.inflight.Load()) }

// Value returns the application state attached with SetValue.
func (c *Conn) Value() any {
	c.valMu.Lock()
	defer c.valMu.Unlock()
	return c.val
}

// SetValue attaches application state to the connection.
func (c *Conn) SetValue(v any) {
	c.valMu.Lock()
	c.val = v
	c.valMu.Unlock()
}

func (c *Conn) touch() { c.touchAt(time.Now()) }

func (c *Conn) touchAt(now time.Time) { c.lastActive.Store(int64(now.Sub(clockBase))) }

// closeWith closes the connection once, recording the first reason.
func (c *Conn) closeWith(reason error) {
	c.closeOnce.Do(func() {
		c.errMu.Lock()
		c.err = reason
		c.errMu.Unlock()
		c.cancel()
		close(c.done)
		_ = c.nc.Close()
	})
}

// run drives the connection from accept to OnClose.
func (c *Conn) run() {
	s := c.srv
	defer s.wg.Done()
	s.safeHook("OnConnect", s.cfg.OnConnect, c)
	go c.writeLoop()
	err := c.readLoop()
	c.closeWith(err)
	c.handlers.Wait()
	c.workers.Wait()
	<-c.writerDone
	s.removeConn(c)
	s.logger.Debug("connection closed", "conn", c.id, "remote", c.remote, "reason", c.Err())
	s.safeHook("OnClose", s.cfg.OnClose, c)
}

// safeHook calls an application hook, keeping its panic from killing the
// server.
func (s *Server) safeHook(name string, hook func(*Conn), c *Conn) {
	if hook == nil {
		return
	}
	defer func() {
		if p := recover(); p != nil {
			s.logger.Error("connection hook panicked", "hook", name, "conn", c.id, "panic", p)
		}
	}()
	hook(c)
}
