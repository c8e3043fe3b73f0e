package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/events"
	"github.com/raftns/raftns/events/watch"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
)

// watchedMember is one member whose admin server serves the audit trail
// and watches, with the trail on (the cluster version raised).
func watchedMember(t *testing.T) (*cluster.Node, http.Handler) {
	t.Helper()
	// Formed at the oldest release, so that the finalization below raises
	// the cluster version and leaves an audit record.
	node := clustertest.Single(t, func(cfg *cluster.Config) { cfg.InitialClusterVersion = buildinfo.Baseline })
	hub := watch.NewHub(watch.Config{}, node.FSM().AppliedIndex())
	t.Cleanup(hub.Close)
	node.FSM().SetChangeObserver(hub)
	s := New(node, prometheus.NewRegistry(), nil)
	s.EnableStatusPage(events.NewRing(10))
	s.EnableWatch(hub)
	h := s.Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, adminRequest(http.MethodPost, "/v1/upgrade/finalize", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("finalize: %d %s", rec.Code, rec.Body)
	}
	return node, h
}

func decode[T any](t *testing.T, h http.Handler, path string) T {
	t.Helper()
	var v T
	code, body := get(t, h, path)
	if code != http.StatusOK || json.Unmarshal([]byte(body), &v) != nil {
		t.Fatalf("GET %s = %d %s", path, code, body)
	}
	return v
}

func TestHTTP_BlockingWatchWakesOnAnAuditedWriteThatGETAuditThenShows(t *testing.T) {
	node, h := watchedMember(t)
	first := decode[adminapi.WatchResult](t, h, "/v1/watch")
	woken := make(chan adminapi.WatchResult, 1)
	go func() {
		var res adminapi.WatchResult
		_, body := get(t, h, "/v1/watch?kind=kv&wait=20s&index="+jsonNumber(first.Index))
		json.Unmarshal([]byte(body), &res)
		woken <- res
	}()
	ctx := cluster.WithCaller(context.Background(), cluster.Caller{Who: "ops-key", From: "198.51.100.4:5000"})
	if _, err := node.Apply(ctx, fsm.PutKVType, &state.PutKV{Namespace: "ORDER_TOPIC_CONFIG", Key: "T", Value: "b:4", HasValue: true}); err != nil {
		t.Fatal(err)
	}
	var res adminapi.WatchResult
	select {
	case res = <-woken:
	case <-time.After(15 * time.Second):
		t.Fatal("the blocking query did not wake")
	}
	if len(res.Changes) != 1 || res.Index <= first.Index || strings.Join(res.Changes[0].Kinds, ",") != "kv,audit" ||
		res.Changes[0].Topics[0] != "T" {
		t.Fatalf("watch answered %+v", res)
	}
	page := decode[adminapi.AuditPage](t, h, "/v1/audit?topic=T")
	if len(page.Records) != 1 || page.Records[0].Who != "ops-key" || page.Records[0].From != "198.51.100.4:5000" ||
		page.Records[0].Kind != state.AuditPutKV || page.Records[0].Index != res.Index {
		t.Fatalf("GET /v1/audit?topic=T = %+v", page)
	}
	// The finalization itself was recorded, by an anonymous caller (no
	// token is configured).
	up := decode[adminapi.AuditPage](t, h, "/v1/audit?kind=cluster-upgrade&since=1h")
	if len(up.Records) != 1 || up.Records[0].Who != cluster.CallerAnonymous || up.Records[0].Outcome != state.OutcomeApplied {
		t.Fatalf("upgrade records = %+v", up)
	}
	// The status page shows the trail and follows the watch stream.
	if code, page := get(t, h, "/"); code != http.StatusOK || !strings.Contains(page, `data-kind="kv-put"`) ||
		!strings.Contains(page, "ops-key") || !strings.Contains(page, "window.EventSource &&  true ") {
		t.Fatalf("status page = %d:\n%s", code, page)
	}
	for _, bad := range []string{"/v1/audit?limit=0", "/v1/audit?after=x", "/v1/audit?since=yesterday",
		"/v1/watch?wait=1h", "/v1/watch?kind=routes", "/v1/watch?index=-1"} {
		if code, _ := get(t, h, bad); code != http.StatusBadRequest {
			t.Errorf("GET %s = %d, want 400", bad, code)
		}
	}
}

func jsonNumber(n uint64) string { b, _ := json.Marshal(n); return string(b) }

func TestHTTP_WatchStreamSendsChangesAsServerSentEvents(t *testing.T) {
	node, h := watchedMember(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/v1/watch?topic=T&stream=true", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
	lines := bufio.NewScanner(resp.Body)
	next := func(prefix string) string {
		for lines.Scan() {
			if strings.HasPrefix(lines.Text(), prefix) {
				return strings.TrimPrefix(lines.Text(), prefix)
			}
		}
		t.Fatalf("stream ended before %q: %v", prefix, lines.Err())
		return ""
	}
	next("event: hello")
	for _, topic := range []string{"U", "T"} {
		if _, err := node.Apply(ctx, fsm.RegisterTopicType, &state.RegisterTopic{Topic: topic,
			QueueDatas: []state.QueueData{{BrokerName: "b", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6}}}); err != nil {
			t.Fatal(err)
		}
	}
	if ev := next("event: "); ev != "change" {
		t.Fatalf("event %q", ev)
	}
	var c adminapi.WatchChange
	if err := json.Unmarshal([]byte(next("data: ")), &c); err != nil || len(c.Topics) != 1 || c.Topics[0] != "T" {
		t.Fatalf("change %+v, %v: want topic T only", c, err)
	}
}
