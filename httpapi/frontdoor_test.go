package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/events"
	"github.com/raftns/raftns/events/watch"
)

// frontDoorServer is one member's admin handler with every endpoint on.
func frontDoorServer(t *testing.T, o Options) http.Handler {
	t.Helper()
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	hub := watch.NewHub(watch.Config{}, node.FSM().AppliedIndex())
	t.Cleanup(hub.Close)
	s.EnableWatch(hub)
	s.EnableStatusPage(events.NewRing(16))
	s.Configure(o)
	return s.Handler()
}

func getCode(h http.Handler, path, token string) int {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec.Code
}

// Under --acl-mode all every read of the state needs the token, as the
// RocketMQ port's reads need a signature; the probes, metrics, status,
// peers and the address service stay open.
func TestHTTP_ReadsOfTheStateNeedTheTokenWhenReadsAreGuarded(t *testing.T) {
	h := frontDoorServer(t, Options{Token: guardToken, ReadsNeedToken: true})
	for _, path := range []string{"/v1/kv/ns/k", "/v1/routes/TopicA", "/v1/watch?wait=1ms", "/v1/watch?stream=true",
		"/v1/audit", "/v1/events", "/v1/brokers", "/", "/?part=main", "/v1/no-such-read"} {
		if code := getCode(h, path, ""); code != http.StatusUnauthorized {
			t.Errorf("GET %s without the token = %d, want 401", path, code)
		}
		if code := getCode(h, path, "wrong-token-0123456789"); code != http.StatusUnauthorized {
			t.Errorf("GET %s with a wrong token = %d, want 401", path, code)
		}
	}
	for _, path := range []string{"/v1/kv/ns/k", "/v1/routes/TopicA", "/v1/watch?wait=1ms", "/v1/audit", "/v1/events", "/"} {
		if code := getCode(h, path, guardToken); code == http.StatusUnauthorized {
			t.Errorf("GET %s with the token = 401", path)
		}
	}
	for _, path := range []string{"/livez", "/readyz", "/metrics", "/v1/status", "/v1/peers", "/rocketmq/nsaddr"} {
		if code := getCode(h, path, ""); code == http.StatusUnauthorized {
			t.Errorf("GET %s without the token = 401, want it open", path)
		}
	}
	open := frontDoorServer(t, Options{Token: guardToken})
	if code := getCode(open, "/v1/kv/ns/k", ""); code != http.StatusNotFound {
		t.Errorf("GET /v1/kv without guarded reads = %d, want 404", code)
	}
}

// A browser page of another origin cannot make a member change anything:
// the browser's Sec-Fetch-Site or Origin gives it away, and so does a body
// type a page may send without asking first; on a member without a token,
// a Host that is a name (a rebound DNS name) does too.
func TestHTTP_CrossOriginBrowserRequestsChangeNothing(t *testing.T) {
	h := frontDoorServer(t, Options{})
	for _, tc := range []struct {
		name, host, origin, site, contentType string
		refused                               bool
	}{
		{"cross-origin text/plain finalize", "127.0.0.1:9856", "http://evil.example", "cross-site", "text/plain", true},
		{"Origin of another site", "127.0.0.1:9856", "http://evil.example", "", "", true},
		{"Sec-Fetch-Site cross-site", "127.0.0.1:9856", "", "cross-site", "", true},
		{"text/plain body, no Origin", "127.0.0.1:9856", "", "", "text/plain;charset=UTF-8", true},
		{"form body, no Origin", "127.0.0.1:9856", "", "", "application/x-www-form-urlencoded", true},
		{"multipart body, no Origin", "127.0.0.1:9856", "", "", "multipart/form-data; boundary=x", true},
		{"a name as Host without a token", "rebound.evil.example:9856", "", "", "", true},
		{"raftnsctl: no Origin, no body", "127.0.0.1:9856", "", "", "", false},
		{"raftnsctl: JSON body", "127.0.0.1:9856", "", "", "application/json", false},
		{"same origin page", "127.0.0.1:9856", "http://127.0.0.1:9856", "same-origin", "application/json", false},
		{"localhost", "localhost:9856", "", "", "", false},
	} {
		r := httptest.NewRequest(http.MethodPost, "/v1/upgrade/finalize", strings.NewReader(""))
		r.Host = tc.host
		for k, v := range map[string]string{"Origin": tc.origin, "Sec-Fetch-Site": tc.site, "Content-Type": tc.contentType} {
			if v != "" {
				r.Header.Set(k, v)
			}
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if refused := rec.Code == http.StatusForbidden && strings.Contains(rec.Body.String(), "cross-origin"); refused != tc.refused {
			t.Errorf("%s: %d %s, want refused=%v", tc.name, rec.Code, rec.Body, tc.refused)
		}
	}
	// With a token, a name as Host is fine (the token is the proof).
	withToken := frontDoorServer(t, Options{Token: guardToken})
	r := httptest.NewRequest(http.MethodPost, "/v1/upgrade/finalize", nil)
	r.Header.Set("Authorization", "Bearer "+guardToken)
	rec := httptest.NewRecorder()
	withToken.ServeHTTP(rec, r)
	if rec.Code == http.StatusForbidden {
		t.Fatalf("token-bearing request to a name: %d %s", rec.Code, rec.Body)
	}
}
