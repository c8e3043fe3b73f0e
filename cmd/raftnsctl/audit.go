package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/spf13/cobra"
)

// auditFlags are the filters of raftnsctl audit, GET /v1/audit's.
type auditFlags struct {
	since, kind, who, topic, broker string
	limit                           int
	follow                          bool
}

func (f *auditFlags) query() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"since": f.since, "kind": f.kind, "who": f.who, "topic": f.topic, "broker": f.broker} {
		if v != "" {
			q.Set(k, v)
		}
	}
	q.Set("limit", strconv.Itoa(f.limit))
	return q
}

func (a *app) auditCommand() *cobra.Command {
	f := &auditFlags{}
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Show who changed what: the replicated audit trail",
		Long: `audit shows GET /v1/audit of the member at --addr: the newest records of the
audit trail every member holds alike, oldest first. Each record says when
(the clock of the member that took the change), who (an ACL access key,
admin-token, anonymous, or raftns for the leader's own decisions), from
where, through which member, what (kind, cluster, broker, topic and the
command's essential fields, KV values shortened) and the outcome.

Filters: --since (RFC 3339 or a duration back from now, e.g. 24h), --kind,
--who, --topic, --broker. --follow then prints new records as they are
applied until interrupted (--timeout does not apply to it). With -o json the
answer is printed as the member gave it, or with --follow one record a line.`,
		Example: `  raftnsctl audit
  raftnsctl audit --since 24h --kind topic-delete
  raftnsctl audit --who ops-key --follow
  raftnsctl audit --broker broker-a -o json`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runAudit(cmd, f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.since, "since", "", "records stamped at or after this time (RFC 3339) or this long ago (e.g. 1h)")
	fs.StringVar(&f.kind, "kind", "", "records of this kind (e.g. write-perm-wipe, topic-delete, kv-put, broker-expiry, leader-transfer)")
	fs.StringVar(&f.who, "who", "", "records of this caller (access key, admin-token, anonymous, raftns)")
	fs.StringVar(&f.topic, "topic", "", "records about this topic")
	fs.StringVar(&f.broker, "broker", "", "records about this broker name")
	fs.IntVar(&f.limit, "limit", 50, "most records shown, 1 to 1000 (before --follow)")
	fs.BoolVarP(&f.follow, "follow", "f", false, "keep printing new records as they are applied")
	return cmd
}

func (a *app) runAudit(cmd *cobra.Command, f *auditFlags) error {
	if f.limit < 1 || f.limit > 1000 {
		return usagef("audit: --limit %d: want 1 to 1000", f.limit)
	}
	var page adminapi.AuditPage
	if !f.follow {
		if printed, err := a.adminRequest(cmd, http.MethodGet, "/v1/audit", f.query(), nil, &page); printed || err != nil {
			return err
		}
		return printAudit(a.stdout, page.Records, true)
	}
	if err := a.adminGet(cmd, "/v1/audit", f.query(), &page); err != nil {
		return err
	}
	if err := a.printAuditRecords(page.Records, true); err != nil {
		return err
	}
	c, err := a.adminClient()
	if err != nil {
		return err
	}
	return a.followAudit(cmd.Context(), c, f, page.LastIndex)
}

// followAudit waits for audit changes (a blocking GET /v1/watch?kind=audit)
// and prints the records after the last one printed, until ctx ends.
func (a *app) followAudit(ctx context.Context, c *adminClient, f *auditFlags, last uint64) error {
	index := last
	for {
		res, err := a.watchOnce(ctx, c, url.Values{"kind": {"audit"}}, index)
		if err != nil {
			return err
		}
		index = res.Index
		if len(res.Changes) == 0 && !res.Missed {
			continue
		}
		for more := true; more; {
			page, err := a.auditAfter(ctx, c, f, last)
			if err != nil {
				return err
			}
			if err := a.printAuditRecords(page.Records, false); err != nil {
				return err
			}
			if n := len(page.Records); n > 0 {
				last = page.Records[n-1].Index
			}
			if page.More {
				last = max(last, page.Next) // a page cut short by the member's scan bound
			}
			more = page.More
		}
		last = max(last, index)
	}
}

// auditAfter reads the records after index last, within --timeout.
func (a *app) auditAfter(ctx context.Context, c *adminClient, f *auditFlags, last uint64) (adminapi.AuditPage, error) {
	q := f.query()
	q.Del("limit")
	q.Set("after", strconv.FormatUint(last, 10))
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	var page adminapi.AuditPage
	_, err := c.call(ctx, http.MethodGet, "/v1/audit", q, nil, &page)
	return page, err
}

// printAuditRecords prints records as a table, or one JSON object a line.
func (a *app) printAuditRecords(recs []adminapi.AuditRecord, header bool) error {
	if !a.json() {
		return printAudit(a.stdout, recs, header)
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// printAudit renders records as a table.
func printAudit(w io.Writer, recs []adminapi.AuditRecord, header bool) error {
	var cols []string
	if header {
		cols = []string{"INDEX", "TIME", "KIND", "WHO", "FROM", "VIA", "ABOUT", "OUTCOME", "DETAIL"}
	}
	tw := newTable(w, cols...)
	for _, r := range recs {
		var about []string
		for _, part := range []string{r.Cluster, r.Broker, r.Topic} {
			if part != "" {
				about = append(about, part)
			}
		}
		row(tw, r.Index, r.Time, r.Kind, r.Who, orDash(r.From), r.Via, orDash(strings.Join(about, "/")), r.Outcome, orDash(r.Detail))
	}
	return tw.Flush()
}
