package httpapi

import (
	"context"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
)

// callerAdminToken names a caller that presented the admin token; the
// token itself is never written anywhere.
const callerAdminToken = "admin-token"

// auditRecordTimeout bounds writing an operation's audit record.
const auditRecordTimeout = 5 * time.Second

// callerOf is who made an admin request and from where: "admin-token" when
// the token is configured (the request passed authorized), else anonymous;
// the remote address, or for a request a follower proxied here, the
// address the follower saw (X-Forwarded-For, set by the proxy).
func (s *Server) callerOf(r *http.Request) cluster.Caller {
	c := cluster.Caller{Who: cluster.CallerAnonymous, From: r.RemoteAddr}
	if s.opts.Token != "" {
		c.Who = callerAdminToken
	}
	if r.Header.Get(forwardedHeader) != "" {
		if xff, _, _ := strings.Cut(r.Header.Get("X-Forwarded-For"), ","); net.ParseIP(strings.TrimSpace(xff)) != nil {
			c.From = strings.TrimSpace(xff)
		}
	}
	return c
}

// record writes an admin operation's audit record, with the caller the
// request carries and the operation's outcome. The operation is done
// whether or not its record is written; a failure to write it is logged.
func (s *Server) record(r *http.Request, rec fsm.AuditRecord, err error) {
	rec.Outcome = cluster.Outcome(err)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), auditRecordTimeout)
	defer cancel()
	if err := s.node.RecordAudit(ctx, rec); err != nil {
		s.logger.Warn("admin operation not recorded in the audit trail", "kind", rec.Kind, "error", err)
	}
}
