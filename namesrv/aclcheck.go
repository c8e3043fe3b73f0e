package namesrv

import (
	"context"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/protocol/remoting"
)

// checkACL answers NO_PERMISSION (16) when access control refuses req, with
// the reason in the remark, and nil when req may be served, with the
// AccessKey the request proved to be from ("" when none was checked). The
// access req's code needs comes from the request table; req's code is one
// the server serves. A refused request changes nothing.
func (s *Server) checkACL(c *remoting.Conn, req *remoting.Command) (string, *remoting.Command) {
	if s.cfg.ACL == nil {
		return "", nil
	}
	who, remark := s.cfg.ACL.Decide(req.Code, s.dispatch[req.Code].access, req.ExtFields, req.Body, c.RemoteAddr())
	if remark == "" {
		return who, nil
	}
	s.logger.Warn("request refused by access control", "code", req.Code, "remote", c.RemoteAddr(), "reason", remark)
	return "", remoting.NewResponse(req, remoting.NoPermission, remark)
}

// withCaller returns ctx carrying who made a write and from where, for
// its audit record: the AccessKey access control checked, else anonymous;
// the connection's remote address (the PROXY-protocol one when present).
func withCaller(ctx context.Context, who string, c *remoting.Conn) context.Context {
	if who == "" {
		who = cluster.CallerAnonymous
	}
	from := ""
	if c != nil {
		from = c.RemoteAddr()
	}
	return cluster.WithCaller(ctx, cluster.Caller{Who: who, From: from})
}
