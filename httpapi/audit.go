package httpapi

import (
	"context"
	"net"
	"net/http"
	"regexp"
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

// memberIDPattern is what a proxying member's ID may look like in the
// forwarded header; anything else leaves this member as the one that took
// the request.
var memberIDPattern = regexp.MustCompile(`^[^\s=,[:cntrl:]]{1,128}$`)

// callerOf is who made an admin request, from where and through which
// member: "admin-token" when the token is configured (the request passed
// authorized), else anonymous; the remote address, or for a request a
// follower proxied here, the address the follower saw (X-Forwarded-For)
// and the follower's ID (the forwarded header), both set by the proxy.
func (s *Server) callerOf(r *http.Request) cluster.Caller {
	c := cluster.Caller{Who: cluster.CallerAnonymous, From: r.RemoteAddr}
	if s.opts.Token != "" {
		c.Who = callerAdminToken
	}
	if via := r.Header.Get(forwardedHeader); via != "" {
		if memberIDPattern.MatchString(via) {
			c.Via = via
		}
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
