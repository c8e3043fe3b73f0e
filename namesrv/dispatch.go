package namesrv

import (
	"context"
	"fmt"
	"time"

	"github.com/raftns/raftns/internal/deadline"
	"github.com/raftns/raftns/protocol/remoting"
)

// ServeRemoting implements remoting.Handler.
func (s *Server) ServeRemoting(ctx context.Context, c *remoting.Conn, req *remoting.Command) *remoting.Command {
	var start time.Time
	if s.cfg.Observer != nil {
		start = time.Now()
	}
	h, ok := s.dispatch[req.Code]
	observed := req.Code
	var resp *remoting.Command
	switch {
	case !ok:
		observed = UnsupportedRequest
		resp = remoting.NewResponse(req, remoting.RequestCodeNotSupported, fmt.Sprintf(" request type %d not supported", req.Code))
	case s.cluster.Removed():
		// Said to every request, so a client or broker that still has
		// this member in its list learns why; the connection is then
		// shed like an unready member's.
		resp = remoting.NewResponse(req, remoting.SystemError, RemarkRemoved)
	case h.read && !s.ready():
		// An unready member drops the connection so the client moves on
		// to another name server (docs/contributors/design.md, "Readiness").
		c.Close()
		return nil
	default:
		var who string
		if who, resp = s.checkACL(c, req); resp == nil {
			if !h.read {
				ctx = withCaller(ctx, who, c)
			}
			resp = fitFrame(req, s.serve(ctx, h, c, req))
		}
	}
	if s.cfg.Observer != nil && resp != nil {
		s.cfg.Observer.ObserveRequest(observed, resp.Code, time.Since(start))
	}
	return resp
}

// ServeInline implements remoting.InlineHandler: a route query whose
// answer is cached is answered on the connection's read goroutine, which
// saves the hand-off to a handler goroutine; it takes no lock and does not
// block. Everything else, an unready member's reads included, goes to
// ServeRemoting.
func (s *Server) ServeInline(c *remoting.Conn, req *remoting.Command) (*remoting.Command, bool) {
	if req.Code != remoting.GetRouteInfoByTopic || !s.ready() || !s.cluster.Visible() {
		return nil, false
	}
	var start time.Time
	if s.cfg.Observer != nil {
		start = time.Now()
	}
	resp, ok := s.cachedRoute(req)
	if !ok {
		return nil, false
	}
	if _, refusal := s.checkACL(c, req); refusal != nil {
		resp = refusal
	}
	if s.cfg.Observer != nil {
		s.cfg.Observer.ObserveRequest(req.Code, resp.Code, time.Since(start))
	}
	return resp, true
}

func (s *Server) ready() bool {
	ready, _ := s.cluster.Ready()
	return ready
}

// serve runs a handler, bounding everything but a read by the write
// timeout (the wait for a leader included), and maps its error.
func (s *Server) serve(ctx context.Context, h codeRow, c *remoting.Conn, req *remoting.Command) *remoting.Command {
	if !h.read {
		var cancel context.CancelFunc
		ctx, cancel = deadline.WithTimeout(ctx, s.cfg.WriteTimeout)
		defer cancel()
	}
	// A changed registration reads nothing it must see (the leader
	// decides); every other request may read local state.
	if h.code != remoting.RegisterBroker {
		if err := s.cluster.AwaitVisible(ctx); err != nil {
			return remoting.NewResponse(req, remoting.SystemError, RemarkBehindOwnWrite+err.Error())
		}
	}
	resp, err := h.fn(ctx, c, req)
	if err != nil {
		return errorResponse(req, err)
	}
	return resp
}
