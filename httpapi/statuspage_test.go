package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/events"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
)

func TestStatusPage_LeaderViewIsSelfContained(t *testing.T) {
	node := clustertest.Single(t, nil)
	ring := events.NewRing(5)
	ring.BrokerChanged(fsm.BrokerChange{Kind: fsm.BrokerRegistered, Cluster: "c1", BrokerName: "b<1>", Addr: "h:1"})
	s := New(node, prometheus.NewRegistry(), nil)
	s.EnableStatusPage(ring)
	h := s.Handler()

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	page := rec.Body.String()
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("no restrictive content security policy: %q", csp)
	}
	for _, want := range []string{`data-role="leader"`, `data-member="solo"`, `name="viewport"`, `data-kind="broker-registered"`,
		"b&lt;1&gt;", `id="topic-count">0<`, `id="release" title="commit ` + buildinfo.Get().Commit + `">` + buildinfo.Release + `<`} {
		if !strings.Contains(page, want) {
			t.Fatalf("page lacks %q:\n%s", want, page)
		}
	}
	if regexp.MustCompile(`(?i)(src|href)="(https?:)?//`).MatchString(strings.ReplaceAll(page, `href="http://`+node.Status().LeaderHTTPAddr, "")) {
		t.Fatalf("page loads something from elsewhere:\n%s", page)
	}

	code, part := get(t, h, "/?part=main")
	if code != http.StatusOK || strings.Contains(part, "<html") || !strings.Contains(part, `data-member="solo"`) {
		t.Fatalf("GET /?part=main = %d, want the content alone:\n%s", code, part)
	}
	if code, _ := get(t, h, "/nothing-here"); code != http.StatusNotFound {
		t.Fatalf("GET /nothing-here = %d, want 404 (the page is at / only)", code)
	}

	code, body := get(t, h, "/v1/events")
	var evs []events.Event
	if err := json.Unmarshal([]byte(body), &evs); code != http.StatusOK || err != nil || len(evs) != 1 || evs[0].Broker != "b<1>" {
		t.Fatalf("GET /v1/events = %d %s (%v)", code, body, err)
	}
	code, body = get(t, h, "/v1/brokers")
	var live []adminapi.BrokerLiveness
	if err := json.Unmarshal([]byte(body), &live); code != http.StatusOK || err != nil {
		t.Fatalf("GET /v1/brokers on the leader = %d %s (%v)", code, body, err)
	}
}

func TestClusterViews_JoinsLivenessByClusterAndAddress(t *testing.T) {
	ci := state.ClusterInfo{
		BrokerAddrTable: map[string]state.BrokerData{
			"b": {Cluster: "c", BrokerName: "b", BrokerAddrs: map[int64]string{1: "h:2", 0: "h:1"}},
			"a": {Cluster: "c", BrokerName: "a", BrokerAddrs: map[int64]string{0: "h:3"}},
		},
		ClusterAddrTable: map[string][]string{"c": {"a", "b"}},
	}
	live := map[livenessKey]adminapi.BrokerLiveness{
		{"c", "h:1"}: {LastHeartbeatMillis: 1500, ExpiresInMillis: 118500},
		{"c", "h:3"}: {LastHeartbeatMillis: 200, ExpiresInMillis: -300},
	}
	views := clusterViews(ci, live)
	if len(views) != 1 || len(views[0].Brokers) != 3 {
		t.Fatalf("views = %+v", views)
	}
	got := views[0].Brokers
	want := []brokerView{
		{Name: "a", ID: 0, Addr: "h:3", LastHeartbeat: "200ms ago", ExpiresIn: "-300ms", Overdue: true},
		{Name: "b", ID: 0, Addr: "h:1", LastHeartbeat: "1.5s ago", ExpiresIn: "1m58s"},
		{Name: "b", ID: 1, Addr: "h:2", LastHeartbeat: "—", ExpiresIn: "—"},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("broker %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestStatusPage_ShowsDrainingAndRemovedMembers(t *testing.T) {
	ms := clustertest.Start(t, 3, nil)
	leader := ms.Leader()
	var draining, removed *cluster.Node
	for _, n := range ms.Followers() {
		if draining == nil {
			draining = n
		} else {
			removed = n
		}
	}
	page := func(n *cluster.Node) string {
		s := New(n, prometheus.NewRegistry(), nil)
		s.EnableStatusPage(events.NewRing(5))
		_, body := get(t, s.Handler(), "/?part=main")
		return body
	}
	ctx := t.Context()
	if _, err := leader.FinalizeUpgrade(ctx); err != nil { // drains need the cluster version
		t.Fatal(err)
	}
	if res, err := leader.RemovePeer(ctx, draining.ID(), cluster.RemoveOptions{Drain: time.Hour}); err != nil || res.Result != adminapi.RemoveResultDraining {
		t.Fatalf("drain %s: %+v, %v", draining.ID(), res, err)
	}
	poll.For(t, 5*time.Second, "the drain on every member", func() bool {
		return draining.Membership() == adminapi.MembershipDraining
	})
	if p := page(draining); !strings.Contains(p, `data-membership="draining"`) {
		t.Fatalf("the draining member's page does not say so:\n%s", p)
	}
	if p := page(leader); !strings.Contains(p, `data-member="`+draining.ID()+`" data-role="follower (draining)"`) {
		t.Fatalf("the leader's page does not show the drain:\n%s", p)
	}
	// Cancel the drain by removing the member at once, then remove the
	// other follower at once too (quorum: force).
	if _, err := leader.RemovePeer(ctx, draining.ID(), cluster.RemoveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := leader.RemovePeer(ctx, removed.ID(), cluster.RemoveOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	poll.For(t, 20*time.Second, removed.ID()+" to find it was removed", removed.Removed)
	p := page(removed)
	if !strings.Contains(p, `data-membership="removed"`) || strings.Contains(p, "Not ready:") {
		t.Fatalf("the removed member's page:\n%s", p)
	}
}
