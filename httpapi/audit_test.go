package httpapi

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// A leadership transfer asked of a follower with the admin token is
// recorded once, as admin-token, and every member holds the same record.
func TestHTTP_ALeaderTransferWithTheTokenIsAuditedOnEveryMember(t *testing.T) {
	const token = "audit-test-admin-token-0123456789"
	ms := clustertest.Start(t, 3, nil)
	leader := ms.Leader()
	if _, err := leader.FinalizeUpgrade(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The follower stamps the record only once it has applied the
	// finalized version.
	ms.WaitApplied(leader.FSM().AppliedIndex())
	follower := ms.Followers()[0]
	s := New(follower, prometheus.NewRegistry(), nil)
	s.Configure(Options{Token: token})
	req := adminRequest(http.MethodPost, "/v1/leader/transfer", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.RemoteAddr = "192.0.2.10:40000"
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("transfer: %d %s", rec.Code, rec.Body)
	}
	var want state.AuditRecord
	poll.For(t, 10*time.Second, "the transfer's record on every member", func() bool {
		var got []state.AuditRecord
		for _, n := range ms.Running() {
			page := n.FSM().AuditRecords(state.AuditQuery{Kind: state.AuditLeaderTransfer})
			if len(page.Records) != 1 {
				return false
			}
			got = append(got, page.Records[0])
		}
		want = got[0]
		return reflect.DeepEqual(got, []state.AuditRecord{want, want, want})
	})
	if want.Who != "admin-token" || want.From != "192.0.2.10:40000" || want.Via != follower.ID() ||
		want.Outcome != state.OutcomeApplied || !strings.HasPrefix(want.Detail, "from="+leader.ID()+" ") {
		t.Fatalf("transfer record = %+v", want)
	}
	if strings.Contains(want.Detail+want.Who, token) {
		t.Fatal("the token reached the record")
	}
	// Without the token nothing is transferred, and nothing is recorded.
	rec = httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, adminRequest(http.MethodPost, "/v1/leader/transfer", nil))
	if rec.Code != http.StatusUnauthorized {
		t.Fatalf("transfer without the token: %d", rec.Code)
	}
	if p := ms.Leader().FSM().AuditRecords(state.AuditQuery{Kind: state.AuditLeaderTransfer}); p.Total != 1 {
		t.Fatalf("records after a refused transfer: %+v", p)
	}
}

// Who a request came from is the connection's peer: the caller's own
// X-Forwarded-For and forwarded header name nobody, unless the peer is a
// trusted proxy (X-Forwarded-For) or the header carries a ticket this
// member issued for that request (a follower's proxy).
func TestCallerOf_CallerHeadersAreIgnoredUnlessTrustedOrVouched(t *testing.T) {
	s := &Server{opts: Options{Token: "secret"}, tickets: newProxyTickets()}
	s.opts.TrustedProxies, _ = ParseTrustedProxies([]string{"10.0.0.0/8"})
	vouched, _ := s.tickets.issue(t.Context(), ticketRequest{From: "198.51.100.7:4000", Via: "n2",
		Method: http.MethodPost, Path: "/v1/leader/transfer"})
	otherPath, _ := s.tickets.issue(t.Context(), ticketRequest{From: "198.51.100.8:4000", Via: "n3",
		Method: http.MethodPost, Path: "/v1/snapshot"})
	cases := []struct {
		name, remote, header, xff, wantVia, wantFrom string
	}{
		{"forged member and address", "192.0.2.1:5000", "n2", "198.51.100.7", "", "192.0.2.1:5000"},
		{"forged address", "192.0.2.1:5000", "", "198.51.100.7", "", "192.0.2.1:5000"},
		{"a ticket this member issued", "192.0.2.1:5000", vouched.Ticket, "203.0.113.1", "n2", "198.51.100.7:4000"},
		{"the same ticket again", "192.0.2.1:5000", vouched.Ticket, "", "", "192.0.2.1:5000"},
		{"a ticket for another path", "192.0.2.1:5000", otherPath.Ticket, "", "", "192.0.2.1:5000"},
		{"through a trusted proxy", "10.0.0.5:80", "", "203.0.113.9, 198.51.100.7, 10.0.0.4", "", "198.51.100.7"},
		{"a trusted proxy that names nobody valid", "10.0.0.5:80", "", "not-an-ip", "", "10.0.0.5:80"},
	}
	for _, c := range cases {
		r := adminRequest(http.MethodPost, "/v1/leader/transfer", nil)
		r.RemoteAddr = c.remote
		if c.header != "" {
			r.Header.Set(forwardedHeader, c.header)
		}
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		got := s.callerOf(r)
		if got.Who != callerAdminToken || got.Via != c.wantVia || got.From != c.wantFrom {
			t.Errorf("%s: caller %+v, want via %q from %q", c.name, got, c.wantVia, c.wantFrom)
		}
	}
}

func TestProxyTickets_AreBoundedAndExpire(t *testing.T) {
	p := newProxyTickets()
	now := time.Unix(1000, 0)
	p.timeNow = func() time.Time { return now }
	req := ticketRequest{From: "a", Via: "n2", Method: http.MethodPost, Path: "/v1/snapshot"}
	first, err := p.issue(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	for range maxProxyTickets - 1 {
		if _, err := p.issue(t.Context(), req); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.issue(t.Context(), req); err == nil {
		t.Fatal("a ticket past the bound was issued")
	}
	now = now.Add(proxyTicketTTL + time.Second)
	if _, ok := p.redeem(first.Ticket, req.Method, req.Path); ok {
		t.Fatal("an expired ticket was redeemed")
	}
	if _, err := p.issue(t.Context(), req); err != nil {
		t.Fatalf("expired tickets were not dropped to make room: %v", err)
	}
}
