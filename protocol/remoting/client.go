package remoting

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
)

// ClientConfig configures a Client.
type ClientConfig struct {
	// DialTimeout bounds connecting to an address.
	DialTimeout time.Duration
	// RequestTimeout bounds an Invoke whose context has no deadline (Java
	// clients use 3 s for route queries).
	RequestTimeout time.Duration
	// WriteTimeout bounds writing a request whose context has no deadline.
	WriteTimeout time.Duration
	// Logger receives debug lines about broken connections and stray
	// frames; nil logs nothing.
	Logger hclog.Logger
}

// DefaultClientConfig returns 3 s for dialing, requests and writes.
func DefaultClientConfig() ClientConfig {
	return ClientConfig{DialTimeout: 3 * time.Second, RequestTimeout: 3 * time.Second, WriteTimeout: 3 * time.Second}
}

// Client sends requests to remoting servers over one multiplexed
// connection per address, as Java NettyRemotingClient does, dialing on
// first use and again after the connection breaks. It is safe for
// concurrent use.
type Client struct {
	cfg    ClientConfig
	logger hclog.Logger
	opaque atomic.Int32

	mu     sync.Mutex
	closed bool
	conns  map[string]*clientConn
	wg     sync.WaitGroup // read loops
}

// NewClient returns a client. Zero durations take the defaults.
func NewClient(cfg ClientConfig) *Client {
	def := DefaultClientConfig()
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = def.DialTimeout
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = def.RequestTimeout
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = def.WriteTimeout
	}
	logger := cfg.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &Client{cfg: cfg, logger: logger, conns: make(map[string]*clientConn)}
}

// Invoke sends req to addr and waits for the response with the same opaque.
// req is not modified: the frame sent carries a fresh opaque and req's
// flag without the response and oneway bits, in req.SerializeType (JSON
// unless set to SerializeRocketMQ). Without a ctx deadline,
// RequestTimeout applies. It fails with an error wrapping
// context.DeadlineExceeded on timeout, ErrConnClosed when the connection
// breaks first (the next call redials), or ErrClientClosed.
func (cl *Client) Invoke(ctx context.Context, addr string, req *Command) (*Command, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cl.cfg.RequestTimeout)
		defer cancel()
	}
	cc, err := cl.conn(ctx, addr)
	if err != nil {
		return nil, err
	}
	r := *req
	r.Flag &^= FlagResponse | FlagOneway
	ch := make(chan *Command, 1)
	r.Opaque = cc.register(cl.nextOpaque, ch)
	if err := cc.write(ctx, &r, cl.cfg.WriteTimeout); err != nil {
		cc.unregister(r.Opaque)
		return nil, fmt.Errorf("remoting: invoke %s code %d: %w", addr, req.Code, err)
	}
	select {
	case resp := <-ch:
		return resp, nil
	case <-cc.done:
		cc.unregister(r.Opaque)
		select { // the response may have won the race with the break
		case resp := <-ch:
			return resp, nil
		default:
		}
		return nil, fmt.Errorf("remoting: invoke %s code %d: %w", addr, req.Code, cc.Err())
	case <-ctx.Done():
		cc.unregister(r.Opaque)
		return nil, fmt.Errorf("remoting: invoke %s code %d opaque %d: %w", addr, req.Code, r.Opaque, ctx.Err())
	}
}

// InvokeOneway sends req to addr with the oneway flag (0x2) and a fresh
// opaque, and returns once it is written; no response is expected.
func (cl *Client) InvokeOneway(ctx context.Context, addr string, req *Command) error {
	cc, err := cl.conn(ctx, addr)
	if err != nil {
		return err
	}
	r := *req
	r.Flag = r.Flag&^FlagResponse | FlagOneway
	r.Opaque = cl.nextOpaque()
	if err := cc.write(ctx, &r, cl.cfg.WriteTimeout); err != nil {
		return fmt.Errorf("remoting: oneway %s code %d: %w", addr, req.Code, err)
	}
	return nil
}

// nextOpaque returns a fresh request id. Like Java's, it wraps.
func (cl *Client) nextOpaque() int32 { return cl.opaque.Add(1) }

// conn returns the live connection to addr, dialing one if needed.
// Concurrent callers share one dial.
func (cl *Client) conn(ctx context.Context, addr string) (*clientConn, error) {
	cl.mu.Lock()
	if cl.closed {
		cl.mu.Unlock()
		return nil, ErrClientClosed
	}
	cc := cl.conns[addr]
	if cc == nil {
		cc = newClientConn(cl, addr)
		cl.conns[addr] = cc
		go cc.dial(cl.cfg.DialTimeout)
	}
	cl.mu.Unlock()
	select {
	case <-cc.ready:
	case <-ctx.Done():
		return nil, fmt.Errorf("remoting: connect %s: %w", addr, ctx.Err())
	}
	if cc.dialErr != nil {
		return nil, fmt.Errorf("remoting: connect %s: %w", addr, cc.dialErr)
	}
	return cc, nil
}

// forget removes cc from the pool if it is still the entry for its address.
func (cl *Client) forget(cc *clientConn) {
	cl.mu.Lock()
	if cl.conns[cc.addr] == cc {
		delete(cl.conns, cc.addr)
	}
	cl.mu.Unlock()
}

// Close closes every connection, failing pending calls with
// ErrClientClosed, and waits for the connection goroutines.
func (cl *Client) Close() error {
	cl.mu.Lock()
	cl.closed = true
	conns := make([]*clientConn, 0, len(cl.conns))
	for _, cc := range cl.conns {
		conns = append(conns, cc)
	}
	cl.conns = make(map[string]*clientConn)
	cl.mu.Unlock()
	for _, cc := range conns {
		<-cc.ready
		cc.fail(ErrClientClosed)
	}
	cl.wg.Wait()
	return nil
}

// dialer opens every client socket; TCP keepalive notices a peer that
// vanished without a FIN while calls are pending.
var dialer = net.Dialer{KeepAlive: 30 * time.Second}
