package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/internal/adminapi"
)

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

func TestHTTP_ProbesStatusAndMetrics(t *testing.T) {
	raftMetrics := installedRaftMetrics(t)
	node := clustertest.Single(t, nil)
	metrics := NewMetrics(node)
	metrics.ObserveRequest(105, 0, 1000)
	h := New(node, prometheus.Gatherers{metrics.Registry, raftMetrics}, nil).Handler()

	if code, body := get(t, h, "/livez"); code != 200 || body != "ok\n" {
		t.Fatalf("/livez = %d %q", code, body)
	}
	if code, body := get(t, h, "/readyz"); code != 200 {
		t.Fatalf("/readyz = %d %q", code, body)
	}
	code, body := get(t, h, "/v1/status")
	var st adminapi.Status
	if code != 200 || json.Unmarshal([]byte(body), &st) != nil || st.ID != "solo" || st.State != "Leader" || !st.Ready {
		t.Fatalf("/v1/status = %d %s", code, body)
	}
	code, body = get(t, h, "/metrics")
	for _, want := range []string{"ns_ready 1", "ns_leader_ready 1", `ns_raft_state{state="Leader"} 1`,
		`ns_requests_total{code="105",response="0"} 1`, "raft_apply", "go_goroutines"} {
		if code != 200 || !strings.Contains(body, want) {
			t.Fatalf("/metrics lacks %q", want)
		}
	}
	code, body = get(t, h, "/v1/peers")
	if code != 200 || !strings.Contains(body, `"suffrage": "Voter"`) {
		t.Fatalf("/v1/peers = %d %s", code, body)
	}
}

func TestHTTP_ReadyzIsUnavailableAfterShutdown(t *testing.T) {
	node := clustertest.Single(t, nil)
	h := New(node, NewMetrics(node).Registry, nil).Handler()
	node.Shutdown()
	code, body := get(t, h, "/readyz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "not ready") {
		t.Fatalf("/readyz after shutdown = %d %q", code, body)
	}
}

func TestHTTP_BadPeerRequestsAreRefused(t *testing.T) {
	node := clustertest.Single(t, nil)
	h := New(node, NewMetrics(node).Registry, nil).Handler()
	for _, tc := range []struct {
		method, path, body string
		want               int
	}{
		{http.MethodPost, "/v1/peers", `{"id":"n2"}`, http.StatusBadRequest},
		{http.MethodPost, "/v1/peers", `{"id":"n2","address":"no-port"}`, http.StatusBadRequest},
		{http.MethodPost, "/v1/peers", `not json`, http.StatusBadRequest},
		{http.MethodDelete, "/v1/peers/nobody", ``, http.StatusNotFound},
		{http.MethodDelete, "/v1/peers/solo", ``, http.StatusConflict},
		{http.MethodDelete, "/v1/peers/solo?drain=soon", ``, http.StatusBadRequest},
		{http.MethodDelete, "/v1/peers/solo?drain=-1s", ``, http.StatusBadRequest},
		{http.MethodDelete, "/v1/peers/solo?drain=2h", ``, http.StatusBadRequest},
		{http.MethodPost, "/v1/snapshot", `garbage`, http.StatusBadRequest},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, adminRequest(tc.method, tc.path, strings.NewReader(tc.body)))
		if rec.Code != tc.want {
			t.Fatalf("%s %s %q = %d %s, want %d", tc.method, tc.path, tc.body, rec.Code, rec.Body.String(), tc.want)
		}
	}
	if len(node.FSM().Members()) != 1 {
		t.Fatal("refused requests changed the membership")
	}
}

// adminRequest is a state-changing request as raftnsctl sends it: to the
// member's address, not to a name.
func adminRequest(method, target string, body io.Reader) *http.Request {
	r := httptest.NewRequest(method, target, body)
	r.Host = "127.0.0.1:9856"
	return r
}
