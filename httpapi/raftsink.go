package httpapi

import (
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
	"time"

	hcmetrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// Defaults of RaftSinkOptions.
const (
	// DefaultRaftSinkExpiration is the go-metrics Prometheus sinks' default.
	DefaultRaftSinkExpiration = 60 * time.Second
	// DefaultRaftSinkMaxSeries bounds the series of the sink; Raft emits
	// about a hundred, plus a few per peer.
	DefaultRaftSinkMaxSeries = 2048
)

// raftSampleBuckets are the histogram buckets of samples, in milliseconds
// for timers: Raft's timings range from tens of microseconds (an FSM apply)
// to seconds (an fsync on a busy disk, a snapshot).
var raftSampleBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000}

// RaftSinkOptions configures a RaftSink.
type RaftSinkOptions struct {
	// Expiration is how long a series may go without an update before a
	// collection drops it; zero means DefaultRaftSinkExpiration and a
	// negative value never drops one.
	Expiration time.Duration
	// MaxSeries caps the series (a key spelled two ways that names one
	// series counts twice); past it, updates of new series are discarded
	// and counted. Zero means DefaultRaftSinkMaxSeries.
	MaxSeries int
	// Now is the clock of expiry, time.Now if nil.
	Now func() time.Time
}

// RaftSink is a go-metrics sink for the metrics hashicorp/raft and
// raft-boltdb emit several times per log entry, and a Prometheus collector
// that exports them under the names the go-metrics Prometheus sinks give
// them. It is built to be cheap on the emitting goroutine: a series is
// found by a hash of its key and labels without building its name, timers
// and samples go to lock-free histograms rather than summaries, and an
// update takes no lock.
type RaftSink struct {
	expiration time.Duration
	maxSeries  int
	now        func() time.Time
	seed       maphash.Seed
	// hashMask is all ones; tests narrow it to force hash collisions.
	hashMask uint64

	// index is replaced, never changed, so lookups read it without a lock;
	// mu serializes its replacement and the expiry bookkeeping.
	index atomic.Pointer[sinkIndex]
	mu    sync.Mutex

	droppedCap     atomic.Uint64
	droppedInvalid atomic.Uint64
	droppedDesc    *prometheus.Desc
	seriesDesc     *prometheus.Desc
}

var _ hcmetrics.MetricSink = (*RaftSink)(nil)
var _ hcmetrics.PrecisionGaugeMetricSink = (*RaftSink)(nil)
var _ prometheus.Collector = (*RaftSink)(nil)

// NewRaftSink returns an empty sink configured by opts.
func NewRaftSink(opts RaftSinkOptions) *RaftSink {
	s := &RaftSink{
		expiration: opts.Expiration,
		maxSeries:  opts.MaxSeries,
		now:        opts.Now,
		seed:       maphash.MakeSeed(),
		hashMask:   ^uint64(0),
		droppedDesc: prometheus.NewDesc("ns_raft_metrics_dropped_total",
			"Raft metric updates discarded: series_cap when the series cap was reached, invalid when the name or labels cannot be exported.",
			[]string{"reason"}, nil),
		seriesDesc: prometheus.NewDesc("ns_raft_metrics_series",
			"Series of Raft metrics held by this member.", nil, nil),
	}
	if s.expiration == 0 {
		s.expiration = DefaultRaftSinkExpiration
	}
	if s.maxSeries <= 0 {
		s.maxSeries = DefaultRaftSinkMaxSeries
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.index.Store(newSinkIndex())
	return s
}

// SetGauge implements go-metrics' MetricSink.
func (s *RaftSink) SetGauge(key []string, val float32) {
	s.SetPrecisionGaugeWithLabels(key, float64(val), nil)
}

// SetGaugeWithLabels implements go-metrics' MetricSink.
func (s *RaftSink) SetGaugeWithLabels(key []string, val float32, labels []hcmetrics.Label) {
	s.SetPrecisionGaugeWithLabels(key, float64(val), labels)
}

// SetPrecisionGauge implements go-metrics' PrecisionGaugeMetricSink.
func (s *RaftSink) SetPrecisionGauge(key []string, val float64) {
	s.SetPrecisionGaugeWithLabels(key, val, nil)
}

// SetPrecisionGaugeWithLabels implements go-metrics' PrecisionGaugeMetricSink.
func (s *RaftSink) SetPrecisionGaugeWithLabels(key []string, val float64, labels []hcmetrics.Label) {
	if se := s.series(kindGauge, key, labels); se != nil {
		se.gauge.Set(val)
	}
}

// EmitKey implements go-metrics' MetricSink and ignores the value, as the
// go-metrics Prometheus sinks do: a key/value event has no Prometheus
// type, and neither Raft nor raft-boltdb emits one.
func (s *RaftSink) EmitKey([]string, float32) {}

// IncrCounter implements go-metrics' MetricSink.
func (s *RaftSink) IncrCounter(key []string, val float32) {
	s.IncrCounterWithLabels(key, val, nil)
}

// IncrCounterWithLabels implements go-metrics' MetricSink. A negative or
// NaN increment is ignored (a Prometheus counter only grows).
func (s *RaftSink) IncrCounterWithLabels(key []string, val float32, labels []hcmetrics.Label) {
	if val < 0 || math.IsNaN(float64(val)) {
		return
	}
	if se := s.series(kindCounter, key, labels); se != nil {
		se.counter.Add(float64(val))
	}
}

// AddSample implements go-metrics' MetricSink; go-metrics reports timers
// (MeasureSince) as samples in milliseconds.
func (s *RaftSink) AddSample(key []string, val float32) {
	s.AddSampleWithLabels(key, val, nil)
}

// AddSampleWithLabels implements go-metrics' MetricSink.
func (s *RaftSink) AddSampleWithLabels(key []string, val float32, labels []hcmetrics.Label) {
	if se := s.series(kindHistogram, key, labels); se != nil {
		se.histogram.Observe(float64(val))
	}
}
