package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/raftns/raftns/cluster/clustertest"
)

// leaderAnswer is a proxied request's answer as the leader sent it.
func leaderAnswer(method string, status int) *http.Response {
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Header: http.Header{},
		Body: io.NopCloser(strings.NewReader(`{"result":"restored"}`)), Request: httptest.NewRequest(method, "/v1/snapshot", nil)}
}

// A change the leader made for a proxied request passes once this member
// reaches the leader's read index; a member that cannot reach it answers
// 503 saying the change was made but does not show here. Reads and
// refusals pass as they came.
func TestShowHere_HoldsAChangeUntilThisMemberShowsIt(t *testing.T) {
	node := clustertest.Single(t, nil)
	s := New(node, NewMetrics(node).Registry, nil)
	resp := leaderAnswer(http.MethodPost, http.StatusOK)
	if err := s.showHere(resp); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("change on a member that shows it: %d, %v", resp.StatusCode, err)
	}
	node.Shutdown()
	for method, status := range map[string]int{http.MethodGet: http.StatusOK, http.MethodPost: http.StatusBadRequest} {
		r := leaderAnswer(method, status)
		if err := s.showHere(r); err != nil || r.StatusCode != status {
			t.Fatalf("%s answered %d passed as %d, %v", method, status, r.StatusCode, err)
		}
	}
	resp = leaderAnswer(http.MethodPost, http.StatusOK)
	if err := s.showHere(resp); err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "does not show the change yet") ||
		resp.ContentLength != int64(len(body)) {
		t.Fatalf("change on a member that cannot catch up: %d %s", resp.StatusCode, body)
	}
}
