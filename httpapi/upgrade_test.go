package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
)

func TestHTTP_FinalizeUpgradeRaisesTheClusterVersion(t *testing.T) {
	// Formed as a release before the cluster version would form it.
	node := clustertest.Single(t, func(c *cluster.Config) { c.InitialClusterVersion = buildinfo.Baseline })
	h := New(node, prometheus.NewRegistry(), nil).Handler()
	status := func() adminapi.Status {
		var st adminapi.Status
		if code, body := get(t, h, "/v1/status"); code != 200 || json.Unmarshal([]byte(body), &st) != nil {
			t.Fatalf("/v1/status = %d %s", code, body)
		}
		return st
	}
	if st := status(); st.ClusterVersion != buildinfo.Baseline || st.Build.Release != buildinfo.Release {
		t.Fatalf("before finalizing: cluster version %q, release %q", st.ClusterVersion, st.Build.Release)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, adminRequest(http.MethodPost, "/v1/upgrade/finalize", nil))
	var res adminapi.FinalizeResult
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &res) != nil || res.Current != buildinfo.Release ||
		res.Members["solo"] != buildinfo.Release {
		t.Fatalf("POST /v1/upgrade/finalize = %d %s", rec.Code, rec.Body.String())
	}
	if st := status(); st.ClusterVersion != buildinfo.Release {
		t.Fatalf("after finalizing: cluster version %q, want %s", st.ClusterVersion, buildinfo.Release)
	}
}

// Once the cluster version is raised, adding a member that does not answer
// is refused with a reason a client can act on: ask again once it runs.
func TestHTTP_AddPeerOfASilentMemberSaysWhy(t *testing.T) {
	node := clustertest.Single(t, nil)
	h := New(node, prometheus.NewRegistry(), nil).Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, adminRequest(http.MethodPost, "/v1/peers", strings.NewReader(`{"id":"n9","address":"127.0.0.1:1"}`)))
	var answer struct{ Error, Reason string }
	if rec.Code != http.StatusConflict || json.Unmarshal(rec.Body.Bytes(), &answer) != nil ||
		answer.Reason != adminapi.ReasonNotAnswering || !strings.Contains(answer.Error, "did not answer") {
		t.Fatalf("POST /v1/peers of a member that does not answer = %d %s", rec.Code, rec.Body.String())
	}
}
