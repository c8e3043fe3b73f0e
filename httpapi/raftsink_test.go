package httpapi

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	armon "github.com/armon/go-metrics"
	armonprom "github.com/armon/go-metrics/prometheus"
	hcmetrics "github.com/hashicorp/go-metrics"
	hcprom "github.com/hashicorp/go-metrics/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// gather registers c in a fresh registry and returns its families by name;
// a Gather error fails the test.
func gather(t *testing.T, c prometheus.Collector) map[string]*dto.MetricFamily {
	t.Helper()
	reg := prometheus.NewRegistry()
	if err := reg.Register(c); err != nil {
		t.Fatal(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatalf("gather: %v", err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, mf := range mfs {
		out[mf.GetName()] = mf
	}
	return out
}

// labelString renders a metric's labels as name=value pairs in order.
func labelString(m *dto.Metric) string {
	var parts []string
	for _, l := range m.GetLabel() {
		parts = append(parts, l.GetName()+"="+l.GetValue())
	}
	return strings.Join(parts, ",")
}

// series lists "name{labels}" of every raft_* series in mfs.
func raftSeries(mfs map[string]*dto.MetricFamily) []string {
	var out []string
	for name, mf := range mfs {
		if !strings.HasPrefix(name, "raft_") {
			continue
		}
		for _, m := range mf.GetMetric() {
			out = append(out, name+"{"+labelString(m)+"}")
		}
	}
	sort.Strings(out)
	return out
}

// feed emits a representative set of Raft and raft-boltdb keys.
func feed(hc hcmetrics.MetricSink, ar armon.MetricSink) {
	peer := []hcmetrics.Label{{Name: "peer_id", Value: "raftns-1"}}
	hc.AddSample([]string{"raft", "commitTime"}, 1.5)
	hc.AddSample([]string{"raft", "replication", "heartbeat", "raftns-1"}, 0.5)
	hc.AddSampleWithLabels([]string{"raft", "replication", "heartbeat"}, 0.5, peer)
	hc.AddSampleWithLabels([]string{"raft", "net", "rpcDecode"}, 0.1, []hcmetrics.Label{{Name: "rpcType", Value: "AppendEntries"}})
	hc.IncrCounter([]string{"raft", "apply"}, 1)
	hc.IncrCounterWithLabels([]string{"raft", "replication", "appendEntries", "logs"}, 3, peer)
	hc.IncrCounter([]string{"raft", "replication", "appendEntries", "logs", "10.0.0.2:9866"}, 3)
	hc.SetGauge([]string{"raft", "peers"}, 3)
	hc.AddSample([]string{"raft", "odd name", "a=b/c-d"}, 2)
	ar.AddSample([]string{"raft", "boltdb", "storeLogs"}, 4.5)
	ar.SetGauge([]string{"raft", "boltdb", "numFreePages"}, 12)
}

func TestRaftSink_NamesAndLabelsMatchTheLibrarySinks(t *testing.T) {
	libReg := prometheus.NewRegistry()
	hcLib, err := hcprom.NewPrometheusSinkFrom(hcprom.PrometheusOpts{Registerer: libReg, Name: "hc"})
	if err != nil {
		t.Fatal(err)
	}
	arLib, err := armonprom.NewPrometheusSinkFrom(armonprom.PrometheusOpts{Registerer: libReg, Name: "armon"})
	if err != nil {
		t.Fatal(err)
	}
	feed(hcLib, arLib)
	lib := map[string]*dto.MetricFamily{}
	libMFs, err := libReg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range libMFs {
		lib[mf.GetName()] = mf
	}

	sink := NewRaftSink(RaftSinkOptions{})
	feed(sink, sink.ForArmon())
	ours := gather(t, sink)

	if got, want := strings.Join(raftSeries(ours), "\n"), strings.Join(raftSeries(lib), "\n"); got != want {
		t.Fatalf("series differ from the library sinks'\nours:\n%s\nlibrary:\n%s", got, want)
	}
	if len(raftSeries(ours)) != 11 {
		t.Fatalf("want 11 series, got %v", raftSeries(ours))
	}
	for name, mf := range lib {
		want := mf.GetType()
		if want == dto.MetricType_SUMMARY {
			want = dto.MetricType_HISTOGRAM
		}
		if got := ours[name].GetType(); got != want {
			t.Errorf("%s: type %v, want %v", name, got, want)
		}
	}
	for _, name := range []string{"raft_commitTime", "raft_boltdb_storeLogs", "raft_replication_heartbeat_raftns_1",
		"raft_odd_name_a_b_c_d", "raft_replication_appendEntries_logs_10_0_0_2:9866"} {
		if ours[name] == nil {
			t.Errorf("%s missing", name)
		}
	}
}

func TestRaftSink_HistogramBucketsSumAndCount(t *testing.T) {
	sink := NewRaftSink(RaftSinkOptions{})
	key := []string{"raft", "commitTime"}
	for _, v := range []float32{0.03125, 0.25, 7, 20000} {
		sink.AddSample(key, v)
	}
	h := gather(t, sink)["raft_commitTime"].GetMetric()[0].GetHistogram()
	if h.GetSampleCount() != 4 || h.GetSampleSum() != 20007.28125 {
		t.Fatalf("count %d sum %v, want 4 and 20007.28125", h.GetSampleCount(), h.GetSampleSum())
	}
	want := map[float64]uint64{0.05: 1, 0.1: 1, 0.25: 2, 0.5: 2, 5: 2, 10: 3, 5000: 3, 10000: 3}
	got := map[float64]uint64{}
	for _, b := range h.GetBucket() {
		got[b.GetUpperBound()] = b.GetCumulativeCount()
	}
	if len(got) != len(raftSampleBuckets) {
		t.Fatalf("%d buckets, want %d", len(got), len(raftSampleBuckets))
	}
	for le, n := range want {
		if got[le] != n {
			t.Errorf("bucket le=%v holds %d, want %d", le, got[le], n)
		}
	}
}

func TestRaftSink_CountersAndGauges(t *testing.T) {
	sink := NewRaftSink(RaftSinkOptions{})
	apply := []string{"raft", "apply"}
	sink.IncrCounter(apply, 1)
	sink.IncrCounter(apply, 2.5)
	sink.IncrCounter(apply, -4)                  // a counter never goes down
	sink.IncrCounter(apply, float32(math.NaN())) // nor becomes NaN
	sink.SetGauge([]string{"raft", "peers"}, 5)
	sink.SetGauge([]string{"raft", "peers"}, 3)
	sink.SetPrecisionGauge([]string{"raft", "big"}, 1e10+0.5)
	sink.SetGaugeWithLabels([]string{"raft", "peers"}, 7, []hcmetrics.Label{{Name: "x", Value: "y"}})
	mfs := gather(t, sink)
	if v := mfs["raft_apply"].GetMetric()[0].GetCounter().GetValue(); v != 3.5 {
		t.Errorf("raft_apply = %v, want 3.5", v)
	}
	peers := map[string]float64{}
	for _, m := range mfs["raft_peers"].GetMetric() {
		peers[labelString(m)] = m.GetGauge().GetValue()
	}
	if peers[""] != 3 || peers["x=y"] != 7 || len(peers) != 2 {
		t.Errorf("raft_peers = %v, want 3 and 7 with x=y", peers)
	}
	if v := mfs["raft_big"].GetMetric()[0].GetGauge().GetValue(); v != 1e10+0.5 {
		t.Errorf("raft_big = %v, want the float64 value", v)
	}
	sink.EmitKey([]string{"raft", "kv"}, 1)
	if _, ok := gather(t, sink)["raft_kv"]; ok {
		t.Error("EmitKey created a series")
	}
}

func TestRaftSink_ConcurrentUpdatesAndCollections(t *testing.T) {
	sink := NewRaftSink(RaftSinkOptions{})
	const workers, rounds = 8, 2000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	reg := prometheus.NewRegistry()
	reg.MustRegister(sink)
	collected := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				collected <- nil
				return
			default:
			}
			if _, err := reg.Gather(); err != nil {
				collected <- err
				return
			}
		}
	}()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			own := []string{"raft", "worker", fmt.Sprint(w)}
			labels := []hcmetrics.Label{{Name: "peer_id", Value: fmt.Sprint(w % 2)}}
			for i := 0; i < rounds; i++ {
				sink.IncrCounter([]string{"raft", "apply"}, 1)
				sink.AddSample([]string{"raft", "commitTime"}, 1)
				sink.AddSampleWithLabels([]string{"raft", "heartbeat"}, 1, labels)
				sink.SetGauge(own, float32(i))
			}
		}(w)
	}
	wg.Wait()
	close(stop)
	if err := <-collected; err != nil {
		t.Fatal(err)
	}
	mfs := gather(t, sink)
	if v := mfs["raft_apply"].GetMetric()[0].GetCounter().GetValue(); v != workers*rounds {
		t.Errorf("raft_apply = %v, want %d", v, workers*rounds)
	}
	if n := mfs["raft_commitTime"].GetMetric()[0].GetHistogram().GetSampleCount(); n != workers*rounds {
		t.Errorf("raft_commitTime count = %d, want %d", n, workers*rounds)
	}
	var hb uint64
	for _, m := range mfs["raft_heartbeat"].GetMetric() {
		hb += m.GetHistogram().GetSampleCount()
	}
	if len(mfs["raft_heartbeat"].GetMetric()) != 2 || hb != workers*rounds {
		t.Errorf("raft_heartbeat: %d series, %d samples", len(mfs["raft_heartbeat"].GetMetric()), hb)
	}
	for w := 0; w < workers; w++ {
		if v := mfs[fmt.Sprintf("raft_worker_%d", w)].GetMetric()[0].GetGauge().GetValue(); v != rounds-1 {
			t.Errorf("raft_worker_%d = %v", w, v)
		}
	}
}

// fakeClock is a settable clock for expiry.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) set(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = time.Unix(1_000_000, 0).Add(d)
}

func TestRaftSink_IdleSeriesExpireAtCollection(t *testing.T) {
	clock := &fakeClock{}
	clock.set(0)
	sink := NewRaftSink(RaftSinkOptions{Now: clock.now})
	a, b := []string{"raft", "a"}, []string{"raft", "b"}
	sink.AddSample(a, 1)
	sink.AddSample(b, 1)
	has := func(name string) bool { _, ok := gather(t, sink)[name]; return ok }
	gather(t, sink) // notices both updates at 0s

	clock.set(30 * time.Second)
	if !has("raft_a") || !has("raft_b") {
		t.Fatal("fresh series missing")
	}
	clock.set(40 * time.Second)
	sink.AddSample(b, 1) // b is noticed as updated by the next collection
	clock.set(61 * time.Second)
	mfs := gather(t, sink)
	if _, ok := mfs["raft_a"]; ok {
		t.Error("raft_a idle for 61s was not dropped")
	}
	if _, ok := mfs["raft_b"]; !ok {
		t.Error("raft_b updated at 40s was dropped at 61s")
	}
	if n := mfs["ns_raft_metrics_series"].GetMetric()[0].GetGauge().GetValue(); n != 1 {
		t.Errorf("ns_raft_metrics_series = %v, want 1", n)
	}
	clock.set(121 * time.Second)
	if !has("raft_b") {
		t.Error("raft_b dropped 60s after the collection that saw its update")
	}
	clock.set(122 * time.Second)
	if has("raft_b") {
		t.Error("raft_b not dropped")
	}
	// A dropped series starts again from zero.
	sink.AddSample(a, 1)
	if n := gather(t, sink)["raft_a"].GetMetric()[0].GetHistogram().GetSampleCount(); n != 1 {
		t.Errorf("recreated raft_a count = %d, want 1", n)
	}
}

// TestRaftSink_GaugesKeepTheirLastValue: Raft sets some gauges only when
// they change (raft_peers on a configuration change); an idle gauge is
// still exported long after the expiration, with its value.
func TestRaftSink_GaugesKeepTheirLastValue(t *testing.T) {
	clock := &fakeClock{}
	clock.set(0)
	sink := NewRaftSink(RaftSinkOptions{Now: clock.now})
	sink.SetGauge([]string{"raft", "peers"}, 3)
	sink.AddSample([]string{"raft", "a"}, 1)
	gather(t, sink)
	clock.set(10 * time.Minute)
	mfs := gather(t, sink)
	if _, ok := mfs["raft_a"]; ok {
		t.Error("raft_a idle for 10 minutes was not dropped")
	}
	peers, ok := mfs["raft_peers"]
	if !ok {
		t.Fatal("raft_peers idle for 10 minutes was dropped")
	}
	if v := peers.GetMetric()[0].GetGauge().GetValue(); v != 3 {
		t.Fatalf("raft_peers = %v, want 3", v)
	}
}

func TestRaftSink_NeverExpiresWithNegativeExpiration(t *testing.T) {
	clock := &fakeClock{}
	clock.set(0)
	sink := NewRaftSink(RaftSinkOptions{Now: clock.now, Expiration: -1})
	sink.IncrCounter([]string{"raft", "apply"}, 1)
	clock.set(1000 * time.Hour)
	if _, ok := gather(t, sink)["raft_apply"]; !ok {
		t.Fatal("series expired although expiry is off")
	}
}

func droppedOf(mfs map[string]*dto.MetricFamily, reason string) float64 {
	for _, m := range mfs["ns_raft_metrics_dropped_total"].GetMetric() {
		if labelString(m) == "reason="+reason {
			return m.GetCounter().GetValue()
		}
	}
	return -1
}

func TestRaftSink_SeriesCapDropsAndCountsNewSeries(t *testing.T) {
	clock := &fakeClock{}
	clock.set(0)
	sink := NewRaftSink(RaftSinkOptions{MaxSeries: 3, Now: clock.now})
	for i := 0; i < 5; i++ {
		sink.IncrCounter([]string{"raft", fmt.Sprint("c", i)}, 1)
	}
	sink.IncrCounter([]string{"raft", "c0"}, 1) // existing series still count
	mfs := gather(t, sink)
	if got := raftSeries(mfs); len(got) != 3 {
		t.Fatalf("series %v, want 3", got)
	}
	if v := mfs["raft_c0"].GetMetric()[0].GetCounter().GetValue(); v != 2 {
		t.Errorf("raft_c0 = %v, want 2", v)
	}
	if d := droppedOf(mfs, "series_cap"); d != 2 {
		t.Errorf("dropped series_cap = %v, want 2", d)
	}
	// Once idle series expire there is room again.
	clock.set(2 * time.Minute)
	gather(t, sink)
	sink.IncrCounter([]string{"raft", "c4"}, 1)
	if _, ok := gather(t, sink)["raft_c4"]; !ok {
		t.Error("no room after expiry")
	}
}

func TestRaftSink_HashCollisionsKeepSeriesApart(t *testing.T) {
	sink := NewRaftSink(RaftSinkOptions{})
	sink.hashMask = 0 // every key hashes to 0
	keys := [][]string{{"raft", "a"}, {"raft", "b"}, {"raft", "a", "b"}, {"raft", "ab"}}
	for i, k := range keys {
		for j := 0; j <= i; j++ {
			sink.IncrCounter(k, 1)
		}
	}
	sink.IncrCounterWithLabels([]string{"raft", "a"}, 10, []hcmetrics.Label{{Name: "peer_id", Value: "1"}})
	sink.IncrCounterWithLabels([]string{"raft", "a"}, 20, []hcmetrics.Label{{Name: "peer_id", Value: "2"}})
	sink.AddSample([]string{"raft", "h"}, 1)
	sink.SetGauge([]string{"raft", "g"}, 4)
	mfs := gather(t, sink)
	got := map[string]float64{}
	for name, mf := range mfs {
		for _, m := range mf.GetMetric() {
			if mf.GetType() == dto.MetricType_COUNTER && strings.HasPrefix(name, "raft_") {
				got[name+"{"+labelString(m)+"}"] = m.GetCounter().GetValue()
			}
		}
	}
	want := map[string]float64{"raft_a{}": 1, "raft_b{}": 2, "raft_a_b{}": 3, "raft_ab{}": 4,
		"raft_a{peer_id=1}": 10, "raft_a{peer_id=2}": 20}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("counters %v, want %v", got, want)
	}
	if mfs["raft_h"].GetMetric()[0].GetHistogram().GetSampleCount() != 1 || mfs["raft_g"].GetMetric()[0].GetGauge().GetValue() != 4 {
		t.Fatal("histogram or gauge mixed up with a colliding counter")
	}
}

func TestRaftSink_SpellingsOfOneSeriesShareIt(t *testing.T) {
	sink := NewRaftSink(RaftSinkOptions{})
	ab := []hcmetrics.Label{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}
	ba := []hcmetrics.Label{{Name: "b", Value: "2"}, {Name: "a", Value: "1"}}
	sink.IncrCounter([]string{"raft", "x.y"}, 1)
	sink.IncrCounter([]string{"raft", "x", "y"}, 1)
	sink.IncrCounter([]string{"raft.x-y"}, 1)
	sink.AddSampleWithLabels([]string{"raft", "z"}, 1, ab)
	sink.AddSampleWithLabels([]string{"raft", "z"}, 1, ba)
	mfs := gather(t, sink)
	if m := mfs["raft_x_y"].GetMetric(); len(m) != 1 || m[0].GetCounter().GetValue() != 3 {
		t.Errorf("raft_x_y = %v, want one series at 3", m)
	}
	if m := mfs["raft_z"].GetMetric(); len(m) != 1 || m[0].GetHistogram().GetSampleCount() != 2 {
		t.Errorf("raft_z = %v, want one series with 2 samples", m)
	}
}

func TestRaftSink_UnexportableSeriesAreDroppedNotFatal(t *testing.T) {
	sink := NewRaftSink(RaftSinkOptions{})
	sink.IncrCounter([]string{"raft", "x"}, 1)
	sink.AddSample([]string{"raft", "x"}, 1)                                                         // same name, other type
	sink.IncrCounter([]string{"raft", "h", "count"}, 1)                                              // fine before raft_h exists
	sink.AddSample([]string{"raft", "h"}, 1)                                                         // raft_h_count is taken
	sink.AddSample([]string{"raft", "k"}, 1)                                                         // a histogram first
	sink.SetGauge([]string{"raft", "k", "sum"}, 1)                                                   // then its _sum
	sink.AddSampleWithLabels([]string{"raft", "le"}, 1, []hcmetrics.Label{{Name: "le", Value: "1"}}) // reserved by histograms
	sink.IncrCounterWithLabels([]string{"raft", "bad"}, 1, []hcmetrics.Label{{Name: "__x", Value: "1"}})
	sink.IncrCounterWithLabels([]string{"raft", "bad"}, 1, []hcmetrics.Label{{Name: "v", Value: "\xff"}})
	sink.IncrCounter([]string{"raft", "bad"}, 1) // a valid series of the same name still works
	mfs := gather(t, sink)
	if got, want := strings.Join(raftSeries(mfs), " "), "raft_bad{} raft_h_count{} raft_k{} raft_x{}"; got != want {
		t.Errorf("series %q, want %q", got, want)
	}
	if mfs["raft_x"].GetType() != dto.MetricType_COUNTER {
		t.Error("raft_x changed type")
	}
	if d := droppedOf(mfs, "invalid"); d != 6 {
		t.Errorf("dropped invalid = %v, want 6", d)
	}
}
