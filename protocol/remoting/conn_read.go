package remoting

import (
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"time"
)

// readLoop reads frames and hands each request to a handler goroutine
// until the connection fails; it returns the close reason.
func (c *Conn) readLoop() error {
	s := c.srv
	for {
		if err := c.awaitFrame(); err != nil {
			return err
		}
		req, charge, err := c.readRequest()
		if err != nil {
			return c.readFailed(err)
		}
		if req == nil {
			continue // answered or ignored without a handler
		}
		answered, err := c.answerInline(req, charge)
		if err != nil {
			return err
		}
		if answered {
			continue
		}
		select {
		case c.sem <- struct{}{}:
		case <-c.done:
			s.cfg.Budget.Release(charge)
			return c.Err()
		}
		c.inflight.Add(1)
		c.handlers.Add(1)
		c.dispatch(req, charge)
	}
}

// readRequest reads the next frame under the frame deadline, charging its
// length to the memory budget first. It returns a nil request for frames
// that need no handler: responses, and requests refused for lack of
// memory, which are answered SYSTEM_BUSY here. charge is what the request
// holds of the budget until its handler returns.
func (c *Conn) readRequest() (req *Command, charge int64, err error) {
	s := c.srv
	if err := c.armFrame(time.Now()); err != nil {
		return nil, 0, err
	}
	l, err := PeekFrameLength(c.br)
	if err != nil {
		return nil, 0, err
	}
	charge = int64(l)
	if !s.cfg.Budget.Acquire(c.ctx, charge, s.cfg.BudgetWait) {
		req, err := SkipCommand(c.br)
		if err != nil {
			return nil, 0, err
		}
		c.touch()
		c.refuseBusy(req, charge)
		return nil, 0, nil
	}
	req, err = ReadCommand(c.br)
	if err != nil {
		s.cfg.Budget.Release(charge)
		return nil, 0, err
	}
	c.touch()
	if req.IsResponse() {
		// Java NettyRemotingAbstract would look the opaque up in its
		// own pending table; a NameServer sends no requests here.
		s.cfg.Budget.Release(charge)
		s.stats.ignoredResponses.Add(1)
		s.logger.Debug("ignoring response frame", "conn", c.id, "opaque", req.Opaque, "code", req.Code)
		return nil, 0, nil
	}
	s.stats.requests.Add(1)
	if req.IsOneway() {
		s.stats.oneway.Add(1)
	}
	return req, charge, nil
}

// readFailed classifies why reading a frame failed and returns the close
// reason.
func (c *Conn) readFailed(err error) error {
	s := c.srv
	var ne net.Error
	switch {
	case isFrameError(err):
		s.stats.badFrames.Add(1)
		args := []any{"conn", c.id, "remote", c.remote, "error", err}
		if size, ok := frameSize(err); ok {
			args = append(args, "size", size, "limit", MaxFrameLength)
		}
		if ok, held := s.badFrameWarn.allow(time.Now()); ok {
			s.logger.Warn("refused a frame, closing the connection", append(args, "refusals_not_logged", held)...)
		} else {
			s.logger.Debug("refused a frame, closing the connection", args...)
		}
	case errors.As(err, &ne) && ne.Timeout():
		s.stats.slowFrames.Add(1)
		s.logger.Debug("frame not received in time, closing connection", "conn", c.id, "remote", c.remote,
			"frame_timeout", s.cfg.FrameTimeout)
		return ErrFrameTimeout
	}
	return err
}

// refuseBusy answers a request of size bytes that found no room in the
// memory budget.
func (c *Conn) refuseBusy(req *Command, size int64) {
	s := c.srv
	s.stats.busy.Add(1)
	args := []any{"conn", c.id, "remote", c.remote, "code", req.Code, "size", size}
	if ok, held := s.busyWarn.allow(time.Now()); ok {
		s.logger.Warn("refused a request: request memory budget exhausted", append(args, "refusals_not_logged", held)...)
	} else {
		s.logger.Debug("refused a request: request memory budget exhausted", args...)
	}
	if req.IsResponse() || req.IsOneway() {
		return
	}
	resp := NewResponse(req, SystemBusy, "raftns: request memory budget exhausted, try again later")
	select {
	case c.out <- outFrame{resp: resp, opaque: req.Opaque, st: req.SerializeType}:
	case <-c.done:
	}
}

// awaitFrame waits for the first byte of the next frame, closing the
// connection with ErrIdleTimeout once it has been all-idle (nothing read,
// nothing written, no request in flight) for IdleTimeout. Only this wait is
// resumable after a read deadline: once a frame has begun, armFrame sets
// the deadline it must arrive by, and a deadline inside it fails the
// connection.
func (c *Conn) awaitFrame() error {
	idle := c.srv.cfg.IdleTimeout
	if idle <= 0 {
		if !c.deadline.IsZero() {
			c.deadline = time.Time{}
			if err := c.nc.SetReadDeadline(c.deadline); err != nil {
				return err
			}
		}
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
			c.touch()
			return nil
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

// armFrame sets the deadline by which a frame whose first byte arrived at
// now must be complete: FrameTimeout, or IdleTimeout when that is off.
func (c *Conn) armFrame(now time.Time) error {
	limit := c.srv.cfg.FrameTimeout
	if limit <= 0 {
		limit = c.srv.cfg.IdleTimeout
	}
	if limit <= 0 {
		return nil
	}
	until := now.Add(limit)
	// A deadline already between three quarters and all of the limit
	// away is close enough, and saves re-arming on every frame.
	if c.deadline.After(now.Add(limit*3/4)) && !c.deadline.After(until) {
		return nil
	}
	c.deadline = until
	return c.nc.SetReadDeadline(until)
}

// serve runs the handler for one request and queues its response, then
// returns the request's charge to the memory budget.
func (c *Conn) serve(req *Command, charge int64) {
	defer func() {
		c.srv.cfg.Budget.Release(charge)
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
