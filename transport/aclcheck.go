package transport

import (
	"github.com/raftns/raftns/transport/remoting"
)

// checkACL answers NO_PERMISSION (16) when access control refuses req, with
// the reason in the remark, and nil when req may be served. The access
// req's code needs comes from the request table; req's code is one the
// server serves. A refused request changes nothing.
func (s *Server) checkACL(c *remoting.Conn, req *remoting.Command) *remoting.Command {
	if s.cfg.ACL == nil {
		return nil
	}
	remark := s.cfg.ACL.Check(req.Code, s.dispatch[req.Code].access, req.ExtFields, req.Body, c.RemoteAddr())
	if remark == "" {
		return nil
	}
	s.logger.Warn("request refused by access control", "code", req.Code, "remote", c.RemoteAddr(), "reason", remark)
	return remoting.NewResponse(req, remoting.NoPermission, remark)
}
