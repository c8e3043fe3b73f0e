package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
)

// forwardLaneRecheck is how long a member that closed a forward-lane
// connection without a hello (one that predates the lane) is sent writes
// through net/rpc before the lane is tried again.
const forwardLaneRecheck = time.Minute

// errLaneUnsupported reports a member that does not speak the forward lane.
var errLaneUnsupported = errors.New("cluster: member does not speak the forward lane")

// forwardLanes keeps one forward-lane connection per leader address. Any
// number of writes share it, each waiting only for its own answer, and the
// frames of writes sent together leave in one write system call (net/rpc
// with gob, which the lane replaces for writes, wrote and flushed every
// call on its own and decoded every reply through reflection).
type forwardLanes struct {
	dialer dialer
	// linkDown cuts links in tests (Config.linkDown); nil in production.
	linkDown func(addr string) bool
	logger   hclog.Logger
	mu       sync.Mutex
	conns    map[string]*forwardConn
	dialing  map[string]*laneDial // address → the connection being opened
	legacy   map[string]time.Time // address → when to try the lane again
	closed   bool
}

// laneDial is a connection being opened; done closes once c or err is set.
type laneDial struct {
	done chan struct{}
	c    *forwardConn
	err  error
}

func newForwardLanes(d dialer, linkDown func(string) bool, logger hclog.Logger) *forwardLanes {
	return &forwardLanes{dialer: d, linkDown: linkDown, logger: logger, conns: map[string]*forwardConn{},
		dialing: map[string]*laneDial{}, legacy: map[string]time.Time{}}
}

// forward sends an encoded write to the leader at addr and waits for its
// answer within ctx, or until cut (errAttemptCut). An error wrapping
// errNotSent means the write never left; errLaneUnsupported means the
// member must be sent it through net/rpc. fresh asks for a new connection
// unless the current one has answered lately (the last try's rule, against
// a half-open connection).
func (l *forwardLanes) forward(ctx context.Context, cut attemptCut, addr string, command []byte, fresh bool) (LeaderReply, error) {
	if l.linkDown != nil && l.linkDown(addr) {
		return LeaderReply{}, fmt.Errorf("%w: forward to %s: link cut", errNotSent, addr)
	}
	c, err := l.get(ctx, cut, addr, fresh)
	if err != nil {
		return LeaderReply{}, err
	}
	return c.call(ctx, cut, command)
}

// get returns the connection to addr, opening one if needed. The opening
// runs on its own goroutine, shared by every write that needs it, and a
// write stops waiting for it at ctx or cut: a paused leader, which takes
// connections but answers no hello, holds up no write bound elsewhere.
func (l *forwardLanes) get(ctx context.Context, cut attemptCut, addr string, fresh bool) (*forwardConn, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, fmt.Errorf("%w: %w", errNotSent, ErrShutdown)
	}
	if until, ok := l.legacy[addr]; ok {
		if time.Now().Before(until) {
			l.mu.Unlock()
			return nil, errLaneUnsupported
		}
		delete(l.legacy, addr)
	}
	if c, ok := l.conns[addr]; ok {
		if !c.broken() && !(fresh && c.quietFor() > leaderSilenceLimit) {
			l.mu.Unlock()
			return c, nil
		}
		c.close(errors.New("replaced by a new connection"))
		delete(l.conns, addr)
	}
	d, ok := l.dialing[addr]
	if !ok {
		d = &laneDial{done: make(chan struct{})}
		l.dialing[addr] = d
		go l.open(addr, d)
	}
	l.mu.Unlock()
	select {
	case <-d.done:
		return d.c, d.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: forward lane to %s: %w", errNotSent, addr, ctx.Err())
	case <-cut.changed:
	case <-cut.silent:
	}
	return nil, fmt.Errorf("%w: forward lane to %s: %w", errNotSent, addr, errAttemptCut)
}

// open opens the connection d waits for.
func (l *forwardLanes) open(addr string, d *laneDial) {
	c, err := dialForwardLane(l.dialer, addr)
	l.mu.Lock()
	delete(l.dialing, addr)
	switch {
	case l.closed:
		if c != nil {
			c.close(ErrShutdown)
		}
		c, err = nil, fmt.Errorf("%w: %w", errNotSent, ErrShutdown)
	case errors.Is(err, errLaneUnsupported):
		l.legacy[addr] = time.Now().Add(forwardLaneRecheck)
		l.logger.Info("member does not speak the forward lane; forwarding writes to it through net/rpc",
			"member", addr, "retry_in", forwardLaneRecheck)
	case err != nil:
		err = fmt.Errorf("%w: forward lane to %s: %w", errNotSent, addr, err)
	default:
		l.conns[addr] = c
	}
	d.c, d.err = c, err
	l.mu.Unlock()
	close(d.done)
}

func (l *forwardLanes) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for addr, c := range l.conns {
		c.close(ErrShutdown)
		delete(l.conns, addr)
	}
}

// dialForwardLane connects to a member's forward lane and exchanges hellos.
func dialForwardLane(d dialer, addr string) (*forwardConn, error) {
	conn, err := d.dial(addr, muxForward, rpcDialTimeout)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(rpcDialTimeout))
	br := bufio.NewReaderSize(conn, forwardReadBuffer)
	if _, err = conn.Write(forwardHello(forwardLaneVersion)); err == nil {
		_, err = readForwardHello(br)
	}
	if err != nil {
		conn.Close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, err
		}
		// Closed (or reset, when the hello reached a socket already
		// closed) after the protocol byte, unanswered: a member that
		// predates the lane. Taking a member for an old one costs only
		// the slower channel until the next try of the lane.
		return nil, fmt.Errorf("%w: %s: %w", errLaneUnsupported, addr, err)
	}
	_ = conn.SetDeadline(time.Time{})
	c := &forwardConn{conn: conn, w: newFrameWriter(conn), calls: map[uint64]chan forwardResult{}}
	c.lastRead.Store(time.Now().UnixNano())
	go c.readLoop(forwardFrameReader{r: br})
	return c, nil
}

// forwardConn is one forward-lane connection to a leader.
type forwardConn struct {
	conn net.Conn
	w    *frameWriter
	// frames counts the answers read; lastRead is when the last one
	// arrived (Unix nanoseconds).
	frames   atomic.Uint64
	lastRead atomic.Int64

	mu     sync.Mutex
	nextID uint64
	calls  map[uint64]chan forwardResult
	err    error // why the connection stopped; nil while it works
}

type forwardResult struct {
	reply LeaderReply
	err   error
}

// call sends command and waits for its answer, ctx or cut. An abandoned
// call leaves the connection to the others unless nothing at all was read
// on it since the call was sent, which is what a stuck connection looks
// like: then it is closed, and its other calls fail (and are retried with
// their request ids).
func (c *forwardConn) call(ctx context.Context, cut attemptCut, command []byte) (LeaderReply, error) {
	ch := make(chan forwardResult, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return LeaderReply{}, fmt.Errorf("%w: %w", errNotSent, err)
	}
	c.nextID++
	id := c.nextID
	c.calls[id] = ch
	c.mu.Unlock()
	framesBefore := c.frames.Load()
	if err := c.w.send(func(b []byte) []byte { return appendForwardRequest(b, id, command) }); err != nil {
		c.forget(id)
		return LeaderReply{}, fmt.Errorf("%w: %w", errNotSent, err)
	}
	var err error
	select {
	case r := <-ch:
		return r.reply, r.err
	case <-ctx.Done():
		err = ctx.Err()
	case <-cut.changed:
		err = errAttemptCut
	case <-cut.silent:
		err = errAttemptCut
	}
	c.forget(id)
	if c.frames.Load() == framesBefore {
		c.close(errors.New("no answer on the connection"))
	}
	return LeaderReply{}, err
}

func (c *forwardConn) forget(id uint64) {
	c.mu.Lock()
	delete(c.calls, id)
	c.mu.Unlock()
}

func (c *forwardConn) readLoop(fr forwardFrameReader) {
	for {
		id, payload, err := fr.next()
		if err == nil {
			var reply LeaderReply
			if reply, err = decodeForwardAnswer(payload); err == nil {
				c.frames.Add(1)
				c.lastRead.Store(time.Now().UnixNano())
				c.mu.Lock()
				ch, ok := c.calls[id]
				delete(c.calls, id)
				c.mu.Unlock()
				if ok {
					ch <- forwardResult{reply: reply}
				}
				continue
			}
		}
		c.close(err)
		return
	}
}

// close stops the connection and fails the calls waiting on it: their
// writes may have been applied.
func (c *forwardConn) close(why error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err = fmt.Errorf("forward lane closed: %w", why)
	calls := c.calls
	c.calls = nil
	c.mu.Unlock()
	c.w.close()
	c.conn.Close()
	for _, ch := range calls {
		ch <- forwardResult{err: c.err}
	}
}

func (c *forwardConn) broken() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err != nil
}

// quietFor is how long ago the connection last read an answer (or opened).
func (c *forwardConn) quietFor() time.Duration {
	return time.Since(time.Unix(0, c.lastRead.Load()))
}
