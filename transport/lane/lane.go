package lane

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

// ErrUnsupported reports a member that does not speak the forward lane.
var ErrUnsupported = errors.New("cluster: member does not speak the forward lane")

// ErrNotSent marks a write that failed before it left this member.
var ErrNotSent = errors.New("not sent")

// ErrClosed is the error of a write after Close, which the member does
// when it shuts down.
var ErrClosed = errors.New("cluster: shut down")

// ErrCut is the error of a try cut short.
var ErrCut = errors.New("the leader changed or went silent")

// Cut cuts a try at a remote leader short: Changed closes when this
// member's view of the leader changes (the write then goes to the new
// leader, or is applied here if this member leads now), Silent when this
// member finds that the leader has been silent too long. Both are shared
// by every try in flight, so a try costs no goroutine or timer of its own;
// nil channels never cut.
type Cut struct{ Changed, Silent <-chan struct{} }

// Context returns ctx, also cancelled with ErrCut as its cause when the
// cut comes, for tries that only watch a context.
func (c Cut) Context(ctx context.Context) (context.Context, context.CancelCauseFunc) {
	actx, cancel := context.WithCancelCause(ctx)
	if c.Changed == nil && c.Silent == nil {
		return actx, cancel
	}
	go func() {
		select {
		case <-c.Changed:
		case <-c.Silent:
		case <-actx.Done():
			return
		}
		cancel(ErrCut)
	}()
	return actx, cancel
}

// Options are what the lanes need from the member.
type Options struct {
	// Dial opens a connection to the forward lane of the member at addr
	// (the cluster port, after its protocol byte).
	Dial func(addr string) (net.Conn, error)
	// HelloTimeout bounds the hello exchange on a new connection.
	HelloTimeout time.Duration
	// StaleAfter is how long a connection may have read nothing before a
	// try that asks for a fresh connection gets a new one.
	StaleAfter time.Duration
	// LinkDown cuts links in tests; nil in production.
	LinkDown func(addr string) bool
	Logger   hclog.Logger
}

// Lanes keeps one forward-lane connection per leader address. Any
// number of writes share it, each waiting only for its own answer, and the
// frames of writes sent together leave in one write system call (net/rpc
// with gob, which the lane replaces for writes, wrote and flushed every
// call on its own and decoded every reply through reflection).
type Lanes struct {
	opt     Options
	mu      sync.Mutex
	conns   map[string]*forwardConn
	dialing map[string]*laneDial // address → the connection being opened
	legacy  map[string]time.Time // address → when to try the lane again
	closed  bool
}

// laneDial is a connection being opened; done closes once c or err is set.
type laneDial struct {
	done chan struct{}
	c    *forwardConn
	err  error
}

// New returns lanes that open connections as opt says.
func New(opt Options) *Lanes {
	return &Lanes{opt: opt, conns: map[string]*forwardConn{},
		dialing: map[string]*laneDial{}, legacy: map[string]time.Time{}}
}

// State reports whether a lane to addr is open, and whether addr is sent
// writes through net/rpc because it does not speak the lane.
func (l *Lanes) State(addr string) (open, fallenBack bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, open = l.conns[addr]
	_, fallenBack = l.legacy[addr]
	return open, fallenBack
}

// Forward sends an encoded write to the leader at addr and waits for its
// answer within ctx, or until cut (ErrCut). An error wrapping
// ErrNotSent means the write never left; ErrUnsupported means the
// member must be sent it through net/rpc. fresh asks for a new connection
// unless the current one has answered lately (the last try's rule, against
// a half-open connection).
func (l *Lanes) Forward(ctx context.Context, cut Cut, addr string, command []byte, fresh bool) (LeaderReply, error) {
	if l.opt.LinkDown != nil && l.opt.LinkDown(addr) {
		return LeaderReply{}, fmt.Errorf("%w: forward to %s: link cut", ErrNotSent, addr)
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
func (l *Lanes) get(ctx context.Context, cut Cut, addr string, fresh bool) (*forwardConn, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, fmt.Errorf("%w: %w", ErrNotSent, ErrClosed)
	}
	if until, ok := l.legacy[addr]; ok {
		if time.Now().Before(until) {
			l.mu.Unlock()
			return nil, ErrUnsupported
		}
		delete(l.legacy, addr)
	}
	if c, ok := l.conns[addr]; ok {
		if !c.broken() && !(fresh && c.quietFor() > l.opt.StaleAfter) {
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
		return nil, fmt.Errorf("%w: forward lane to %s: %w", ErrNotSent, addr, ctx.Err())
	case <-cut.Changed:
	case <-cut.Silent:
	}
	return nil, fmt.Errorf("%w: forward lane to %s: %w", ErrNotSent, addr, ErrCut)
}

// open opens the connection d waits for.
func (l *Lanes) open(addr string, d *laneDial) {
	c, err := dialForwardLane(l.opt, addr)
	l.mu.Lock()
	delete(l.dialing, addr)
	switch {
	case l.closed:
		if c != nil {
			c.close(ErrClosed)
		}
		c, err = nil, fmt.Errorf("%w: %w", ErrNotSent, ErrClosed)
	case errors.Is(err, ErrUnsupported):
		l.legacy[addr] = time.Now().Add(forwardLaneRecheck)
		l.opt.Logger.Info("member does not speak the forward lane; forwarding writes to it through net/rpc",
			"member", addr, "retry_in", forwardLaneRecheck)
	case err != nil:
		err = fmt.Errorf("%w: forward lane to %s: %w", ErrNotSent, addr, err)
	default:
		l.conns[addr] = c
	}
	d.c, d.err = c, err
	l.mu.Unlock()
	close(d.done)
}

// Close closes every connection; writes after it fail with ErrClosed.
func (l *Lanes) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for addr, c := range l.conns {
		c.close(ErrClosed)
		delete(l.conns, addr)
	}
}

// dialForwardLane connects to a member's forward lane and exchanges hellos.
func dialForwardLane(opt Options, addr string) (*forwardConn, error) {
	conn, err := opt.Dial(addr)
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(time.Now().Add(opt.HelloTimeout))
	br := bufio.NewReaderSize(conn, forwardReadBuffer)
	var version byte
	if _, err = conn.Write(forwardHello(forwardLaneVersion)); err == nil {
		version, err = readForwardHello(br)
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
		return nil, fmt.Errorf("%w: %s: %w", ErrUnsupported, addr, err)
	}
	_ = conn.SetDeadline(time.Time{})
	c := &forwardConn{conn: conn, w: newFrameWriter(conn), calls: map[uint64]chan forwardResult{},
		version: min(version, forwardLaneVersion)}
	c.lastRead.Store(int64(monotonicNow()))
	go c.readLoop(forwardFrameReader{r: br})
	return c, nil
}

// forwardConn is one forward-lane connection to a leader.
type forwardConn struct {
	conn net.Conn
	w    *frameWriter
	// version is the lane version both sides speak on the connection.
	version byte
	// frames counts the answers read; lastRead is when the last one
	// arrived (monotonicNow).
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
func (c *forwardConn) call(ctx context.Context, cut Cut, command []byte) (LeaderReply, error) {
	ch := make(chan forwardResult, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return LeaderReply{}, fmt.Errorf("%w: %w", ErrNotSent, err)
	}
	c.nextID++
	id := c.nextID
	c.calls[id] = ch
	c.mu.Unlock()
	framesBefore := c.frames.Load()
	if err := c.w.send(func(b []byte) []byte { return appendForwardRequest(b, id, command) }); err != nil {
		c.forget(id)
		return LeaderReply{}, fmt.Errorf("%w: %w", ErrNotSent, err)
	}
	var err error
	select {
	case r := <-ch:
		return r.reply, r.err
	case <-ctx.Done():
		err = ctx.Err()
	case <-cut.Changed:
		err = ErrCut
	case <-cut.Silent:
		err = ErrCut
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
			if reply, err = decodeForwardAnswer(payload, c.version); err == nil {
				c.frames.Add(1)
				c.lastRead.Store(int64(monotonicNow()))
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
	return monotonicNow() - time.Duration(c.lastRead.Load())
}

// processStart anchors monotonicNow.
var processStart = time.Now()

// monotonicNow is the time since the process started on the monotonic
// clock: an instant that fits an atomic integer and that a step of the
// wall clock does not move (Unix nanoseconds would).
func monotonicNow() time.Duration { return time.Since(processStart) }
