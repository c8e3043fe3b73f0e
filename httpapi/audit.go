package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm/state"
)

// callerAdminToken names a caller that presented the admin token; the
// token itself is never written anywhere.
const callerAdminToken = "admin-token"

// auditRecordTimeout bounds writing an operation's audit record.
const auditRecordTimeout = 5 * time.Second

// callerOf is who made an admin request, from where and through which
// member: "admin-token" when the token is configured (the request passed
// authorized), else anonymous; the address it came from (clientAddr), or
// for a request a follower proxied here with a ticket this member issued,
// the address the follower saw and the follower's ID.
func (s *Server) callerOf(r *http.Request) cluster.Caller {
	c := cluster.Caller{Who: cluster.CallerAnonymous, From: s.clientAddr(r)}
	if s.opts.Token != "" {
		c.Who = callerAdminToken
	}
	if ticket := r.Header.Get(forwardedHeader); ticket != "" {
		if t, ok := s.tickets.redeem(ticket, r.Method, r.URL.Path); ok {
			c.From, c.Via = t.From, t.Via
		}
	}
	return c
}

// record writes an admin operation's audit record, with the caller the
// request carries and the operation's outcome. The operation is done
// whether or not its record is written; a failure to write it is logged.
func (s *Server) record(r *http.Request, rec state.AuditRecord, err error) {
	rec.Outcome = cluster.Outcome(err)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), auditRecordTimeout)
	defer cancel()
	if err := s.node.RecordAudit(ctx, rec); err != nil {
		s.logger.Warn("admin operation not recorded in the audit trail", "kind", rec.Kind, "error", err)
	}
}
