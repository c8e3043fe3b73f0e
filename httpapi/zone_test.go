package httpapi

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/events"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

func TestZone_ShownInStatusPeersMetricsAndPage(t *testing.T) {
	node := clustertest.Single(t, func(c *cluster.Config) { c.Zone = "eu-1a" })
	metrics := NewMetrics(node)
	s := New(node, metrics.Registry, nil)
	s.EnableStatusPage(events.NewRing(1))
	h := s.Handler()

	code, body := get(t, h, "/v1/status")
	var st adminapi.Status
	if code != http.StatusOK || json.Unmarshal([]byte(body), &st) != nil || st.Zone != "eu-1a" {
		t.Fatalf("/v1/status = %d %s", code, body)
	}
	if _, body := get(t, h, "/metrics"); !strings.Contains(body, `ns_member_zone{zone="eu-1a"} 1`) {
		t.Fatal("/metrics lacks the zone")
	}
	if _, body := get(t, h, "/"); !strings.Contains(body, `zone <b id="zone">eu-1a</b>`) {
		t.Fatalf("the status page lacks the zone:\n%s", body)
	}
	poll.For(t, 10*time.Second, "the zone in the member directory", func() bool {
		for _, m := range node.FSM().Members() {
			if m.ID == "solo" && m.Zone == "eu-1a" {
				return true
			}
		}
		return false
	})
	var peers []adminapi.PeerStatus
	if code, body := get(t, h, "/v1/peers"); code != http.StatusOK || json.Unmarshal([]byte(body), &peers) != nil ||
		len(peers) != 1 || peers[0].Zone != "eu-1a" {
		t.Fatalf("/v1/peers = %d %s", code, body)
	}
}

func TestZone_NoneShowsNoZoneMetric(t *testing.T) {
	node := clustertest.Single(t, nil)
	h := New(node, NewMetrics(node).Registry, nil).Handler()
	if _, body := get(t, h, "/metrics"); strings.Contains(body, "ns_member_zone{") {
		t.Fatal("/metrics has a zone for a member without one")
	}
}

func TestZone_NotPublishedBeforeTheClusterVersionAllowsIt(t *testing.T) {
	node := clustertest.Single(t, func(c *cluster.Config) { c.Zone = "a"; c.InitialClusterVersion = "0.3.0" })
	poll.For(t, 10*time.Second, "the member in the directory", func() bool { return len(node.FSM().Members()) == 1 })
	if m := node.FSM().Members()[0]; m.Zone != "" {
		t.Fatalf("a cluster at 0.3.0 published zone %q, which members of 0.3.0 would not keep", m.Zone)
	}
	if st := node.Status(); st.Zone != "a" {
		t.Fatalf("the member's own status shows zone %q", st.Zone)
	}
}

func TestStatusPage_MembersTableShowsEachMembersZone(t *testing.T) {
	zones := map[string]string{"n1": "eu-1a", "n2": "eu-1b", "n3": ""}
	ms := clustertest.Start(t, 3, func(c *cluster.Config) { c.Zone = zones[c.ID] })
	leader := ms.Leader()
	s := New(leader, prometheus.NewRegistry(), nil)
	s.EnableStatusPage(events.NewRing(1))
	h := s.Handler()
	// Each member's row, from its data-member attribute to its zone cell.
	row := regexp.MustCompile(`(?s)data-member="(n\d)".*?<td class="zone" data-zone="([^"]*)">([^<]*)</td>`)
	var page string
	poll.For(t, 15*time.Second, "every member's zone on the leader's page", func() bool {
		_, page = get(t, h, "/?part=main")
		shown := map[string]string{}
		for _, m := range row.FindAllStringSubmatch(page, -1) {
			if m[2] != zones[m[1]] {
				return false
			}
			shown[m[1]] = m[3]
		}
		return len(shown) == 3 && shown["n1"] == "eu-1a" && shown["n2"] == "eu-1b" && shown["n3"] == "—"
	})
	if !strings.Contains(page, "<th>Zone</th>") {
		t.Fatalf("the members table has no zone heading:\n%s", page)
	}
}
