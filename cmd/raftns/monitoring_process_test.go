package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/raftns/raftns/internal/poll"
	"sigs.k8s.io/yaml"
)

// monitoringDir holds the Grafana dashboard and the Prometheus alert rules.
var monitoringDir = filepath.Join("..", "..", "deploy", "monitoring")

// TestProcessMonitoringQueriesUseLiveMetrics checks that every metric name
// the dashboard and the alert rules query is exposed by a live member's
// /metrics once it has served a few requests.
func TestProcessMonitoringQueriesUseLiveMetrics(t *testing.T) {
	queries := dashboardQueries(t)
	queries = append(queries, alertQueries(t)...)
	used := map[string][]string{}
	for _, q := range queries {
		names := metricNames(q)
		if len(names) == 0 {
			t.Fatalf("query %q uses no RaftNS metric", q)
		}
		for _, n := range names {
			used[n] = append(used[n], q)
		}
	}

	p := newProc(t, "solo")
	p.start()
	p.waitReady()
	c := newClient(t)
	ctx := ctxT(t, 30*time.Second)
	// A registration, a KV write and a route query, so the request
	// histograms and Raft's commit timer have samples.
	if _, err := c.RegisterBroker(ctx, p.ClientAddr, brokerRegistration("DefaultCluster", "broker-a", "127.0.0.1:10911", 0, 1, "TopicA")); err != nil {
		t.Fatal(err)
	}
	if err := c.PutKV(ctx, p.ClientAddr, "NS", "k", "v"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetRoute(ctx, p.ClientAddr, "TopicA"); err != nil {
		t.Fatal(err)
	}
	var live map[string]bool
	var missing []string
	poll.For(t, 30*time.Second, "every queried metric on /metrics", func() bool {
		live = liveMetricNames(t, p)
		missing = missing[:0]
		for n := range used {
			if !live[n] {
				missing = append(missing, n)
			}
		}
		return len(missing) == 0
	})
	if len(used) < 15 {
		t.Fatalf("the dashboard and rules use only %d metric names; the extraction is broken", len(used))
	}
	t.Logf("%d metric names used by the dashboard and rules, all live", len(used))
}

// TestMonitoringMetricNameExtraction guards the check above against passing
// by finding nothing.
func TestMonitoringMetricNameExtraction(t *testing.T) {
	got := metricNames(`histogram_quantile(0.99, sum by (le) (rate(ns_request_duration_seconds_bucket{job="ns_fake",code=~"103"}[5m]))) > 0 or raft_commitTime_count{instance="raft_x"}`)
	want := []string{"ns_request_duration_seconds_bucket", "raft_commitTime_count"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("metricNames = %v, want %v", got, want)
	}
}

var (
	quotedString = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	metricToken  = regexp.MustCompile(`\b(?:ns|raft)_[A-Za-z0-9_:]+\b`)
)

// metricNames returns the RaftNS and Raft metric names in a PromQL query,
// sorted; label values (quoted) are ignored.
func metricNames(q string) []string {
	set := map[string]bool{}
	for _, n := range metricToken.FindAllString(quotedString.ReplaceAllString(q, `""`), -1) {
		set[n] = true
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func dashboardQueries(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(monitoringDir, "raftns-dashboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		t.Fatalf("dashboard: %v", err)
	}
	var out []string
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Fatalf("dashboard panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			out = append(out, tg.Expr)
		}
	}
	if len(out) == 0 {
		t.Fatal("the dashboard has no query")
	}
	return out
}

func alertQueries(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(monitoringDir, "raftns-alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert string `json:"alert"`
				Expr  string `json:"expr"`
			} `json:"rules"`
		} `json:"groups"`
	}
	if err := yaml.Unmarshal(data, &rules); err != nil {
		t.Fatalf("alert rules: %v", err)
	}
	var out []string
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			out = append(out, r.Expr)
		}
	}
	if len(out) < 7 {
		t.Fatalf("want at least the 7 documented alerts, found %d", len(out))
	}
	return out
}

// liveMetricNames scrapes the member and returns every sample name it
// exposes (a histogram's _bucket, _sum and _count, a summary's _sum and
// _count included).
func liveMetricNames(t *testing.T, p *proc) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for name, f := range scrapeMetrics(t, p) {
		if len(f.GetMetric()) == 0 {
			continue
		}
		names[name] = true
		switch f.GetType() {
		case dto.MetricType_HISTOGRAM:
			names[name+"_bucket"], names[name+"_sum"], names[name+"_count"] = true, true, true
		case dto.MetricType_SUMMARY:
			names[name+"_sum"], names[name+"_count"] = true, true
		}
	}
	return names
}

// scrapeMetrics scrapes the member's /metrics and parses it.
func scrapeMetrics(t *testing.T, p *proc) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := p.Get(ctxT(t, 10*time.Second), "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	return families
}
