package httpapi

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/protocol/remoting"
)

// Request metrics count every request, whether its labelled children come
// from the cache or, past the cache's bound, from a label lookup.
func TestMetrics_RequestCountsWithAndBeyondTheCachedChildren(t *testing.T) {
	node := clustertest.Single(t, nil)
	m := NewMetrics(node)
	for range 3 {
		m.ObserveRequest(105, 0, time.Millisecond)
	}
	m.ObserveRequest(105, 17, time.Millisecond)
	for code := range int32(maxCachedObservers + 10) {
		m.ObserveRequest(2000+code, 0, time.Millisecond)
	}
	m.ObserveRequest(2000+maxCachedObservers+5, 0, time.Millisecond)
	for _, tc := range []struct {
		code, response string
		want           float64
	}{{"105", "0", 3}, {"105", "17", 1}, {"2000", "0", 1}, {"3029", "0", 2}} {
		var got dto.Metric
		if err := m.requests.WithLabelValues(tc.code, tc.response).(prometheus.Metric).Write(&got); err != nil {
			t.Fatal(err)
		}
		if got.GetCounter().GetValue() != tc.want {
			t.Errorf("ns_requests_total{code=%s,response=%s} = %v, want %v", tc.code, tc.response, got.GetCounter().GetValue(), tc.want)
		}
	}
	if got := m.observerCount.Load(); got != maxCachedObservers {
		t.Errorf("cached children = %d, want the bound %d", got, maxCachedObservers)
	}
	var hist dto.Metric
	if err := m.latency.WithLabelValues("105").(prometheus.Metric).Write(&hist); err != nil {
		t.Fatal(err)
	}
	if got := hist.GetHistogram().GetSampleCount(); got != 4 {
		t.Errorf("latency samples of code 105 = %d, want 4", got)
	}
}

// Requests the server does not serve are counted under one label.
func TestMetrics_UnsupportedRequestsShareOneLabel(t *testing.T) {
	m := NewMetrics(clustertest.Single(t, nil))
	m.ObserveRequest(namesrv.UnsupportedRequest, 3, time.Millisecond)
	m.ObserveRequest(namesrv.UnsupportedRequest, 3, time.Millisecond)
	var got dto.Metric
	if err := m.requests.WithLabelValues("unsupported", "3").(prometheus.Metric).Write(&got); err != nil {
		t.Fatal(err)
	}
	if got.GetCounter().GetValue() != 2 {
		t.Fatalf(`ns_requests_total{code="unsupported",response="3"} = %v, want 2`, got.GetCounter().GetValue())
	}
}

// fixedConnStats reports fixed connection counters.
type fixedConnStats remoting.ServerStats

func (f fixedConnStats) Stats() remoting.ServerStats { return remoting.ServerStats(f) }

// The connection collector exports each counter under its own name.
func TestConnCollector_ExportsEachCounter(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(NewConnCollector(fixedConnStats{OpenConns: 3, Accepted: 7, Busy: 2, Inline: 41, SlowFrames: 5}))
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			got[f.GetName()] = m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
	}
	for name, want := range map[string]float64{"ns_connections_open": 3, "ns_connections_accepted_total": 7, "ns_busy_total": 2,
		"ns_requests_inline_total": 41, "ns_slow_frames_total": 5, "ns_bad_frames_total": 0} {
		if got[name] != want {
			t.Errorf("%s = %v, want %v (all: %v)", name, got[name], want, got)
		}
	}
}

// Successful answers of the request codes RocketMQ defines find their
// children by index: they are counted like any other and take no room in
// the bounded cache that other pairs share.
func TestMetrics_SuccessfulAnswersFoundByIndex(t *testing.T) {
	m := NewMetrics(clustertest.Single(t, nil))
	for code := range int32(directObservers) {
		m.ObserveRequest(code, remoting.Success, time.Millisecond)
	}
	m.ObserveRequest(105, remoting.Success, time.Millisecond)
	if got := m.observerCount.Load(); got != 0 {
		t.Fatalf("cached children after successful answers = %d, want 0 (found by index)", got)
	}
	m.ObserveRequest(directObservers, remoting.Success, time.Millisecond) // past the index: cached
	m.ObserveRequest(105, remoting.SystemError, time.Millisecond)
	if got := m.observerCount.Load(); got != 2 {
		t.Fatalf("cached children = %d, want 2", got)
	}
	for _, tc := range []struct {
		code, response string
		want           float64
	}{{"105", "0", 2}, {"0", "0", 1}, {"1023", "0", 1}, {"1024", "0", 1}, {"105", "1", 1}} {
		var got dto.Metric
		if err := m.requests.WithLabelValues(tc.code, tc.response).(prometheus.Metric).Write(&got); err != nil {
			t.Fatal(err)
		}
		if got.GetCounter().GetValue() != tc.want {
			t.Errorf("ns_requests_total{code=%s,response=%s} = %v, want %v", tc.code, tc.response, got.GetCounter().GetValue(), tc.want)
		}
	}
}

// raftns_build_info is 1 with this build's release and commit as labels.
func TestMetrics_BuildInfoNamesTheBuild(t *testing.T) {
	m := NewMetrics(clustertest.Single(t, nil))
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	want := buildinfo.Get()
	for _, f := range families {
		if f.GetName() != "raftns_build_info" {
			continue
		}
		labels := map[string]string{}
		for _, l := range f.GetMetric()[0].GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if f.GetMetric()[0].GetGauge().GetValue() != 1 || labels["release"] != want.Release || labels["commit"] != want.Commit {
			t.Fatalf("raftns_build_info = %v %v, want 1 with release %s commit %s", f.GetMetric()[0].GetGauge().GetValue(), labels, want.Release, want.Commit)
		}
		return
	}
	t.Fatal("no raftns_build_info metric")
}
