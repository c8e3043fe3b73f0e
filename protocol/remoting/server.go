package remoting

import (
	"cmp"
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/internal/poll"
)

// Handler answers requests. ServeRemoting is called for each request that
// an InlineHandler did not answer at once, on a goroutine of its own while
// it runs (a connection reuses its idle handler goroutines), concurrently with other requests of the same connection (up
// to ServerConfig.MaxInflightPerConn), so it must be safe for concurrent use.
// ctx is cancelled when the connection closes. A nil result sends nothing.
// The server copies the request's opaque and serialize type into the
// response and sets its response flag, so a handler may return a shared,
// read-only Command; for a oneway request the result is discarded. A panic
// is recovered and answered with SYSTEM_ERROR.
type Handler interface {
	ServeRemoting(ctx context.Context, c *Conn, req *Command) *Command
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, c *Conn, req *Command) *Command

// ServeRemoting calls f.
func (f HandlerFunc) ServeRemoting(ctx context.Context, c *Conn, req *Command) *Command {
	return f(ctx, c, req)
}

// Server accepts remoting connections and dispatches their requests to a
// Handler. Its methods are safe for concurrent use.
type Server struct {
	cfg    ServerConfig
	h      Handler
	inline InlineHandler // h, when it answers some requests inline
	logger hclog.Logger
	// badFrameWarn and busyWarn rate-limit the warnings about refused
	// frames and requests.
	badFrameWarn, busyWarn warnLimit

	ctx    context.Context // parent of every connection's context
	cancel context.CancelFunc
	done   chan struct{} // closed by Close

	mu        sync.Mutex
	closed    bool
	listeners map[net.Listener]struct{}
	conns     map[uint64]*Conn
	wg        sync.WaitGroup // connection goroutines

	stats serverCounters
}

// NewServer returns a server that answers with h. Out-of-range config
// values are replaced by their defaults (MaxInflightPerConn below 1) or
// treated as disabled (negative limits and timeouts); call
// ServerConfig.Validate first to reject them instead. A nil logger logs
// nothing.
func NewServer(cfg ServerConfig, h Handler, logger hclog.Logger) *Server {
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	if cfg.MaxInflightPerConn < 1 {
		cfg.MaxInflightPerConn = DefaultServerConfig().MaxInflightPerConn
	}
	cfg.MaxConns = max(cfg.MaxConns, 0)
	cfg.IdleTimeout = max(cfg.IdleTimeout, 0)
	cfg.WriteTimeout = max(cfg.WriteTimeout, 0)
	ctx, cancel := context.WithCancel(context.Background())
	inline, _ := h.(InlineHandler)
	return &Server{
		cfg:       cfg,
		h:         h,
		inline:    inline,
		logger:    logger,
		ctx:       ctx,
		cancel:    cancel,
		done:      make(chan struct{}),
		listeners: make(map[net.Listener]struct{}),
		conns:     make(map[uint64]*Conn),
	}
}

// Serve accepts connections on ln until ln fails or the server is closed,
// and then closes ln. It returns ErrServerClosed after Close. Serve may run
// on several listeners at once.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ln.Close()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer s.dropListener(ln)

	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosed() {
				return ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Resource exhaustion (EMFILE and the like): back off as
			// net/http does instead of spinning.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.logger.Warn("accept failed", "error", err, "retry_in", backoff)
			if !poll.Sleep(backoff, s.done) {
				return ErrServerClosed
			}
			continue
		}
		backoff = 0
		s.admit(nc)
	}
}

func (s *Server) dropListener(ln net.Listener) {
	s.mu.Lock()
	delete(s.listeners, ln)
	s.mu.Unlock()
	_ = ln.Close()
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// admit registers an accepted connection and starts it, or closes it when
// the server is closed or full.
func (s *Server) admit(nc net.Conn) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = nc.Close()
		return
	}
	if s.cfg.MaxConns > 0 && len(s.conns) >= s.cfg.MaxConns {
		s.mu.Unlock()
		s.stats.rejectedByLimit.Add(1) // before Close, so a peer seeing EOF sees the count
		_ = nc.Close()
		s.logger.Debug("connection rejected by limit", "remote", nc.RemoteAddr().String(), "max_conns", s.cfg.MaxConns)
		return
	}
	c := newConn(s, nc)
	s.conns[c.id] = c
	s.wg.Add(1)
	s.stats.accepted.Add(1)
	s.mu.Unlock()
	go c.run()
}

// removeConn forgets a closed connection.
func (s *Server) removeConn(c *Conn) {
	s.mu.Lock()
	delete(s.conns, c.id)
	s.mu.Unlock()
}

// Conns returns the open connections, ordered by ID.
func (s *Server) Conns() []*Conn {
	s.mu.Lock()
	out := make([]*Conn, 0, len(s.conns))
	for _, c := range s.conns {
		out = append(out, c)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b *Conn) int { return cmp.Compare(a.id, b.id) })
	return out
}

// Close stops accepting, closes every listener and connection (their close
// reason is ErrServerClosed, and OnClose runs for each), cancels handler
// contexts and waits until every connection goroutine and handler has
// returned. It is safe to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.wg.Wait()
		return nil
	}
	s.closed = true
	close(s.done)
	for ln := range s.listeners {
		_ = ln.Close()
	}
	conns := make([]*Conn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()

	s.cancel()
	for _, c := range conns {
		c.closeWith(ErrServerClosed)
	}
	s.wg.Wait()
	return nil
}
