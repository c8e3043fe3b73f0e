package remoting

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

// clientConn is one pooled connection of a Client: a dial state, a
// serialized writer and a read loop that hands responses to their callers.
type clientConn struct {
	cl   *Client
	addr string

	ready   chan struct{} // closed when the dial finished
	dialErr error         // set before ready closes
	nc      net.Conn

	wmu  sync.Mutex
	wbuf []byte

	mu      sync.Mutex
	pending map[int32]chan<- *Command
	err     error         // why the connection broke
	done    chan struct{} // closed when broken
}

func newClientConn(cl *Client, addr string) *clientConn {
	return &clientConn{
		cl:      cl,
		addr:    addr,
		ready:   make(chan struct{}),
		pending: make(map[int32]chan<- *Command),
		done:    make(chan struct{}),
	}
}

// dial connects and starts the read loop; a failed dial leaves the pool so
// the next call dials again.
func (cc *clientConn) dial(timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	nc, err := dialer.DialContext(ctx, "tcp", cc.addr)
	if err != nil {
		cc.dialErr = err
		cc.cl.forget(cc)
		cc.fail(err)
		close(cc.ready)
		return
	}
	cc.nc = nc
	cc.cl.mu.Lock()
	closed := cc.cl.closed
	if !closed {
		cc.cl.wg.Add(1)
	}
	cc.cl.mu.Unlock()
	if closed {
		cc.dialErr = ErrClientClosed
		_ = nc.Close()
		cc.fail(ErrClientClosed)
		close(cc.ready)
		return
	}
	close(cc.ready)
	go cc.readLoop()
}

// register adds a pending call under a fresh opaque not already in use.
func (cc *clientConn) register(next func() int32, ch chan<- *Command) int32 {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	for {
		op := next()
		if _, busy := cc.pending[op]; !busy {
			cc.pending[op] = ch
			return op
		}
	}
}

func (cc *clientConn) unregister(op int32) {
	cc.mu.Lock()
	delete(cc.pending, op)
	cc.mu.Unlock()
}

// write sends one request frame. The write deadline is ctx's, or
// writeTimeout from now. A failed write breaks the connection, since part
// of a frame may have been sent.
func (cc *clientConn) write(ctx context.Context, c *Command, writeTimeout time.Duration) error {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(writeTimeout)
	}
	cc.wmu.Lock()
	defer cc.wmu.Unlock()
	select {
	case <-cc.done:
		return cc.Err()
	default:
	}
	head, err := appendFrameHead(cc.wbuf[:0], c)
	if err != nil {
		return err // nothing written; the connection is fine
	}
	cc.wbuf = head[:0]
	if err := cc.nc.SetWriteDeadline(deadline); err != nil {
		cc.fail(err)
		return cc.Err()
	}
	bufs := net.Buffers{head, c.Body}
	if _, err := bufs.WriteTo(cc.nc); err != nil {
		cc.fail(err)
		return cc.Err()
	}
	return nil
}

// readLoop delivers responses by opaque until the connection breaks.
func (cc *clientConn) readLoop() {
	defer cc.cl.wg.Done()
	br := bufio.NewReaderSize(cc.nc, readBufferSize)
	for {
		resp, err := ReadCommand(br)
		if err != nil {
			cc.fail(err)
			return
		}
		if !resp.IsResponse() {
			// Server-initiated requests (R5 NOTIFY_MIN_BROKER_ID_CHANGE)
			// go to the broker's own listener, not to this connection.
			cc.cl.logger.Debug("ignoring request from server", "addr", cc.addr, "code", resp.Code)
			continue
		}
		cc.mu.Lock()
		ch, ok := cc.pending[resp.Opaque]
		delete(cc.pending, resp.Opaque)
		cc.mu.Unlock()
		if !ok {
			cc.cl.logger.Debug("response without pending call", "addr", cc.addr, "opaque", resp.Opaque, "code", resp.Code)
			continue
		}
		ch <- resp // buffered, one response per call
	}
}

// fail breaks the connection once: it leaves the pool, closes the socket
// and wakes every pending call with the cause wrapped in ErrConnClosed
// (or ErrClientClosed itself).
func (cc *clientConn) fail(cause error) {
	cc.mu.Lock()
	if cc.err != nil {
		cc.mu.Unlock()
		return
	}
	if cause == ErrClientClosed {
		cc.err = ErrClientClosed
	} else {
		cc.err = fmt.Errorf("%w: %s: %w", ErrConnClosed, cc.addr, cause)
	}
	cc.pending = make(map[int32]chan<- *Command)
	cc.mu.Unlock()
	// Out of the pool before any waiter wakes: a call made after one that
	// failed here must dial anew, not find this connection.
	cc.cl.forget(cc)
	close(cc.done)
	if cc.nc != nil {
		_ = cc.nc.Close()
	}
	cc.cl.logger.Debug("connection broken", "addr", cc.addr, "error", cause)
}

// Err returns why the connection broke, or nil.
func (cc *clientConn) Err() error {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.err
}
