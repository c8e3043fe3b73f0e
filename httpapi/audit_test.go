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
	"github.com/raftns/raftns/fsm"
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
	req := httptest.NewRequest(http.MethodPost, "/v1/leader/transfer", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.RemoteAddr = "192.0.2.10:40000"
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("transfer: %d %s", rec.Code, rec.Body)
	}
	var want fsm.AuditRecord
	poll.For(t, 10*time.Second, "the transfer's record on every member", func() bool {
		var got []fsm.AuditRecord
		for _, n := range ms.Running() {
			page := n.FSM().AuditRecords(fsm.AuditQuery{Kind: fsm.AuditLeaderTransfer})
			if len(page.Records) != 1 {
				return false
			}
			got = append(got, page.Records[0])
		}
		want = got[0]
		return reflect.DeepEqual(got, []fsm.AuditRecord{want, want, want})
	})
	if want.Who != "admin-token" || want.From != "192.0.2.10:40000" || want.Via != follower.ID() ||
		want.Outcome != fsm.OutcomeApplied || !strings.HasPrefix(want.Detail, "from="+leader.ID()+" ") {
		t.Fatalf("transfer record = %+v", want)
	}
	if strings.Contains(want.Detail+want.Who, token) {
		t.Fatal("the token reached the record")
	}
	// Without the token nothing is transferred, and nothing is recorded.
	rec = httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/leader/transfer", nil))
	if rec.Code != http.StatusUnauthorized {
		t.Fatalf("transfer without the token: %d", rec.Code)
	}
	if p := ms.Leader().FSM().AuditRecords(fsm.AuditQuery{Kind: fsm.AuditLeaderTransfer}); p.Total != 1 {
		t.Fatalf("records after a refused transfer: %+v", p)
	}
}

// A request a follower proxied names the follower as the member that took
// it; a forwarded header that cannot be a member ID names nobody.
func TestCallerOf_AProxiedRequestNamesTheFollowerThatTookIt(t *testing.T) {
	s := &Server{opts: Options{Token: "secret"}}
	cases := []struct {
		header, xff, wantVia, wantFrom string
	}{
		{"n2", "198.51.100.7", "n2", "198.51.100.7"},
		{"bad id", "198.51.100.7", "", "198.51.100.7"},
		{"", "198.51.100.7", "", "192.0.2.1:5000"},
	}
	for _, c := range cases {
		r := httptest.NewRequest(http.MethodPost, "/v1/leader/transfer", nil)
		r.RemoteAddr = "192.0.2.1:5000"
		if c.header != "" {
			r.Header.Set(forwardedHeader, c.header)
		}
		r.Header.Set("X-Forwarded-For", c.xff)
		got := s.callerOf(r)
		if got.Who != callerAdminToken || got.Via != c.wantVia || got.From != c.wantFrom {
			t.Errorf("forwarded %q: caller %+v, want via %q from %q", c.header, got, c.wantVia, c.wantFrom)
		}
	}
}
