package production

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the cluster-test lookups' Prometheus metrics
// (docs/operators/operations.md).
type Metrics struct {
	lookups   *prometheus.CounterVec
	cacheHits prometheus.Counter
	inFlight  prometheus.Gauge
	duration  prometheus.Histogram
}

func newMetrics() *Metrics {
	m := &Metrics{
		lookups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ns_production_lookups_total",
			Help: "Cluster-test route lookups sent to production, by result: found, not_found, error or busy (refused: too many at once).",
		}, []string{"result"}),
		cacheHits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ns_production_cache_hits_total", Help: "Cluster-test route queries answered from the short cache of production's answers.",
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ns_production_lookups_in_flight", Help: "Cluster-test route lookups under way.",
		}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "ns_production_lookup_duration_seconds", Help: "Time a cluster-test route lookup took, address service included.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}),
	}
	for _, r := range []string{"found", "not_found", "error", "busy"} {
		m.lookups.WithLabelValues(r)
	}
	return m
}

// Describe implements prometheus.Collector.
func (m *Metrics) Describe(ch chan<- *prometheus.Desc) {
	m.lookups.Describe(ch)
	m.cacheHits.Describe(ch)
	m.inFlight.Describe(ch)
	m.duration.Describe(ch)
}

// Collect implements prometheus.Collector.
func (m *Metrics) Collect(ch chan<- prometheus.Metric) {
	m.lookups.Collect(ch)
	m.cacheHits.Collect(ch)
	m.inFlight.Collect(ch)
	m.duration.Collect(ch)
}
