package httpapi

import (
	"testing"
	"time"

	hcmetrics "github.com/hashicorp/go-metrics"
	hcprom "github.com/hashicorp/go-metrics/prometheus"
	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkRaftSinkPerEntry compares, in one run, the go-metrics
// Prometheus sink against RaftSink for three calls Raft makes per log
// entry: a timer on a two-part key (raft.commitTime), a counter
// (raft.apply) and a labelled timer (raft.replication.appendEntries.rpc
// with peer_id). "sink" calls the sink as go-metrics does; "metrics" goes
// through go-metrics' Metrics wrapper as Raft's MeasureSince does, which
// adds the wrapper's own cost to both.
func BenchmarkRaftSinkPerEntry(b *testing.B) {
	library, err := hcprom.NewPrometheusSinkFrom(hcprom.PrometheusOpts{Registerer: prometheus.NewRegistry(), Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	commit := []string{"raft", "commitTime"}
	apply := []string{"raft", "apply"}
	rpc := []string{"raft", "replication", "appendEntries", "rpc"}
	peer := []hcmetrics.Label{{Name: "peer_id", Value: "raftns-1"}}
	perEntry := func(s hcmetrics.MetricSink) {
		s.AddSample(commit, 1.5)
		s.IncrCounter(apply, 1)
		s.AddSampleWithLabels(rpc, 0.7, peer)
	}
	cfg := hcmetrics.DefaultConfig("")
	cfg.EnableHostname, cfg.EnableRuntimeMetrics, cfg.EnableServiceLabel = false, false, false
	for _, c := range []struct {
		name string
		sink hcmetrics.MetricSink
	}{{"library", library}, {"raftsink", NewRaftSink(RaftSinkOptions{})}} {
		b.Run(c.name+"/sink", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				perEntry(c.sink)
			}
		})
		b.Run(c.name+"/sink-parallel", func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					perEntry(c.sink)
				}
			})
		})
		m, err := hcmetrics.New(cfg, c.sink)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/metrics", func(b *testing.B) {
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				m.MeasureSince(commit, start)
				m.IncrCounter(apply, 1)
				m.MeasureSinceWithLabels(rpc, start, peer)
			}
		})
	}
}
