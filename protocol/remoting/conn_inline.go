package remoting

import (
	"fmt"
	"runtime/debug"
)

// InlineHandler is a Handler that can answer some requests at once. The
// server offers it every request before handing the request to a handler
// goroutine: ServeInline runs on the connection's read goroutine, so it must
// neither block nor take long (a cached read, a pure local lookup) and
// must be safe for concurrent use with ServeRemoting. It returns ok false to
// leave the request to ServeRemoting. A nil response with ok true sends
// nothing. The response is treated as ServeRemoting's: shared read-only
// Commands are fine, the server writes the request's opaque and
// serialize type into its copy of the frame. A panic is recovered and
// answered with SYSTEM_ERROR.
type InlineHandler interface {
	Handler
	ServeInline(c *Conn, req *Command) (resp *Command, ok bool)
}

// answerInline offers req to the server's InlineHandler. When that answers,
// the response is written at once if nothing else of the connection is
// waiting to be read or written and no batch is being written; otherwise
// it joins the writer's queue, so that pipelined requests keep their
// responses batched. Frames never interleave: the writer holds wmu for
// each batch it writes, and so does a direct write. The request's budget
// charge is released before answered is returned as true; err is a write
// error, which closes the connection.
func (c *Conn) answerInline(req *Command, charge int64) (answered bool, err error) {
	ih := c.srv.inline
	if ih == nil || req.IsOneway() {
		return false, nil
	}
	c.inflight.Add(1) // idle closing and shedding see the request as in flight
	resp, ok := c.callInline(ih, req)
	c.inflight.Add(-1)
	if !ok {
		return false, nil
	}
	c.srv.cfg.Budget.Release(charge)
	c.srv.stats.inline.Add(1)
	if resp == nil {
		return true, nil
	}
	f := outFrame{resp: resp, opaque: req.Opaque, st: req.SerializeType}
	if c.br.Buffered() != 0 || len(c.out) != 0 || !c.wmu.TryLock() {
		select {
		case c.out <- f:
		case <-c.done:
		}
		return true, nil
	}
	defer c.wmu.Unlock()
	if err := c.writeFrames(f, 0); err != nil {
		return true, err
	}
	return true, nil
}

// callInline calls ServeInline, turning a panic into SYSTEM_ERROR as
// callHandler does.
func (c *Conn) callInline(ih InlineHandler, req *Command) (resp *Command, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			c.srv.stats.handlerPanics.Add(1)
			c.srv.logger.Error("inline handler panicked", "conn", c.id, "code", req.Code, "opaque", req.Opaque,
				"panic", p, "stack", string(debug.Stack()))
			resp, ok = NewResponse(req, SystemError, fmt.Sprintf("remoting: handler panic: %v", p)), true
		}
	}()
	return ih.ServeInline(c, req)
}
