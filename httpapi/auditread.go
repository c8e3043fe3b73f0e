package httpapi

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/feature"
)

// getAudit is GET /v1/audit: this member's copy of the replicated audit
// trail (every member holds the same one), filtered by since (RFC 3339 or
// a duration such as 1h), kind, who, topic and broker, paged by after or
// before (record indexes) and limit.
func (s *Server) getAudit(w http.ResponseWriter, r *http.Request) {
	q, err := auditQuery(r, time.Now())
	if err != nil {
		writeError(w, badRequest(err.Error()))
		return
	}
	if !s.auditTurn(w, r) || !s.readBarrier(w, r) {
		return
	}
	f := s.node.FSM()
	page := f.AuditRecords(q)
	out := adminapi.AuditPage{Records: make([]adminapi.AuditRecord, 0, len(page.Records)), More: page.More,
		Total: page.Total, LastIndex: f.LastAuditIndex()}
	for _, rec := range page.Records {
		out.Records = append(out.Records, AuditRecordJSON(rec))
	}
	if page.More {
		out.Next = page.Next
	}
	writeJSON(w, http.StatusOK, out)
}

// auditQuery reads GET /v1/audit's parameters; now resolves a since given
// as a duration.
func auditQuery(r *http.Request, now time.Time) (state.AuditQuery, error) {
	v := r.URL.Query()
	q := state.AuditQuery{Kind: v.Get("kind"), Who: v.Get("who"), Topic: v.Get("topic"), Broker: v.Get("broker")}
	var err error
	for name, dst := range map[string]*uint64{"after": &q.After, "before": &q.Before} {
		if s := v.Get(name); s != "" {
			if *dst, err = strconv.ParseUint(s, 10, 64); err != nil {
				return q, fmt.Errorf("%s=%q: want a record index", name, s)
			}
		}
	}
	if s := v.Get("limit"); s != "" {
		if q.Limit, err = strconv.Atoi(s); err != nil || q.Limit < 1 || q.Limit > state.MaxAuditPage {
			return q, fmt.Errorf("limit=%q: want 1..%d", s, state.MaxAuditPage)
		}
	}
	if s := v.Get("since"); s != "" {
		since, err := parseSince(s, now)
		if err != nil {
			return q, err
		}
		q.SinceMillis = since.UnixMilli()
	}
	return q, nil
}

// parseSince reads a time (RFC 3339) or a duration back from now.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("since=%q: want an RFC 3339 time or a duration such as 1h", s)
}

// AuditRecordJSON is the admin API's form of a record.
func AuditRecordJSON(r state.AuditRecord) adminapi.AuditRecord {
	return adminapi.AuditRecord{Index: r.Index, Time: time.UnixMilli(r.Millis).UTC().Format(time.RFC3339Nano),
		Who: r.Who, From: r.From, Via: r.Via, Kind: r.Kind, Cluster: r.Cluster, Broker: r.Broker, Topic: r.Topic,
		Detail: r.Detail, Outcome: r.Outcome}
}

// statusAuditRecords is how many audit records the status page shows.
const statusAuditRecords = 20

// gatherAudit fills the status page's audit panel, newest first.
func (p *statusPage) gatherAudit(v *statusView) {
	page := p.node.FSM().AuditRecords(state.AuditQuery{Limit: statusAuditRecords})
	v.AuditTotal, v.AuditOn, v.WatchEnabled = page.Total, p.node.Gate().Allows(feature.AuditTrail), p.watching()
	for i := len(page.Records) - 1; i >= 0; i-- {
		v.Audit = append(v.Audit, AuditRecordJSON(page.Records[i]))
	}
}
