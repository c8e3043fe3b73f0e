package remoting

import (
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"time"
)

// readLoop reads frames and starts a handler per request until the
// connection fails; it returns the close reason.
func (c *Conn) readLoop() error {
	s := c.srv
	for {
		if err := c.awaitFrame(); err != nil {
			return err
		}
		req, err := ReadCommand(c.br)
		if err != nil {
			if isFrameError(err) {
				s.stats.badFrames.Add(1)
				s.logger.Debug("bad frame, closing connection", "conn", c.id, "remote", c.remote, "error", err)
			}
			return err
		}
		c.touch()
		if req.IsResponse() {
			// Java NettyRemotingAbstract would look the opaque up in its
			// own pending table; a NameServer sends no requests here.
			s.stats.ignoredResponses.Add(1)
			s.logger.Debug("ignoring response frame", "conn", c.id, "opaque", req.Opaque, "code", req.Code)
			continue
		}
		s.stats.requests.Add(1)
		if req.IsOneway() {
			s.stats.oneway.Add(1)
		}
		select {
		case c.sem <- struct{}{}:
		case <-c.done:
			return c.Err()
		}
		c.inflight.Add(1)
		c.handlers.Add(1)
		go c.serve(req)
	}
}

// awaitFrame waits for the first byte of the next frame, closing the
// connection with ErrIdleTimeout once it has been all-idle (nothing read,
// nothing written, no request in flight) for IdleTimeout. Only this wait is
// resumable after a read deadline: once a frame has begun, it gets a full
// IdleTimeout to arrive, and a deadline inside it fails the connection.
func (c *Conn) awaitFrame() error {
	idle := c.srv.cfg.IdleTimeout
	if idle <= 0 {
		_, err := c.br.Peek(1)
		return err
	}
	for {
		now := time.Now()
		until := c.LastActivity().Add(idle)
		if !until.After(now) {
			if c.InFlight() == 0 {
				c.srv.stats.idleClosed.Add(1)
				return ErrIdleTimeout
			}
			until = now.Add(idle) // a slow handler counts as activity
		}
		if err := c.armRead(now, until); err != nil {
			return err
		}
		_, err := c.br.Peek(1)
		if err == nil {
			now = time.Now()
			c.touchAt(now)
			return c.armRead(now, now.Add(idle))
		}
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			return err
		}
	}
}

// armRead moves the read deadline to until if the one in force has expired
// or is more than a quarter timeout earlier, so that a busy connection
// re-arms it a few times per timeout rather than on every frame.
func (c *Conn) armRead(now, until time.Time) error {
	if c.deadline.After(now) && until.Sub(c.deadline) <= c.srv.cfg.IdleTimeout/4 {
		return nil
	}
	c.deadline = until
	return c.nc.SetReadDeadline(until)
}

// serve runs the handler for one request and queues its response.
func (c *Conn) serve(req *Command) {
	defer func() {
		c.inflight.Add(-1)
		<-c.sem
		c.handlers.Done()
	}()
	resp := c.callHandler(req)
	if resp == nil || req.IsOneway() {
		return
	}
	select {
	case c.out <- outFrame{resp: resp, opaque: req.Opaque, st: req.SerializeType}:
	case <-c.done:
	}
}

// callHandler calls the handler, turning a panic into SYSTEM_ERROR as Java
// NettyRemotingAbstract.processRequestCommand does for an exception.
func (c *Conn) callHandler(req *Command) (resp *Command) {
	defer func() {
		if p := recover(); p != nil {
			c.srv.stats.handlerPanics.Add(1)
			c.srv.logger.Error("handler panicked", "conn", c.id, "code", req.Code, "opaque", req.Opaque,
				"panic", p, "stack", string(debug.Stack()))
			resp = NewResponse(req, SystemError, fmt.Sprintf("remoting: handler panic: %v", p))
		}
	}()
	return c.srv.h.ServeRemoting(c.ctx, c, req)
}
