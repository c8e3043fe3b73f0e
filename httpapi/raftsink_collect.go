package httpapi

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Describe implements prometheus.Collector. It sends no descriptor: the
// series come and go with Raft's peers and activity, so the sink is an
// unchecked collector.
func (s *RaftSink) Describe(chan<- *prometheus.Desc) {}

// Collect implements prometheus.Collector. It first drops the counters and
// histograms that saw no update for the expiration (a gauge is a level that
// Raft sets only when it changes, such as raft_peers on a configuration
// change, so it keeps its last value): an update is noticed by the first
// collection after it, so a series lives at least the expiration after its
// last update and at most that plus one scrape interval. An update racing
// with the drop of its series is lost; it comes only after the series was
// idle for the whole expiration.
func (s *RaftSink) Collect(ch chan<- prometheus.Metric) {
	live := s.expire()
	for _, se := range live {
		switch {
		case se.gauge != nil:
			ch <- se.gauge
		case se.counter != nil:
			ch <- se.counter
		case se.histogram != nil:
			ch <- se.histogram
		}
	}
	ch <- prometheus.MustNewConstMetric(s.droppedDesc, prometheus.CounterValue, float64(s.droppedCap.Load()), "series_cap")
	ch <- prometheus.MustNewConstMetric(s.droppedDesc, prometheus.CounterValue, float64(s.droppedInvalid.Load()), "invalid")
	ch <- prometheus.MustNewConstMetric(s.seriesDesc, prometheus.GaugeValue, float64(len(live)))
}

// expire drops the idle series and returns the others.
func (s *RaftSink) expire() []*series {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	idx := s.index.Load()
	live := make([]*series, 0, len(idx.all))
	for _, se := range idx.all {
		if se.touched.Swap(false) {
			se.lastSeen = now
		}
		if se.kind == kindGauge || s.expiration < 0 || now.Sub(se.lastSeen) <= s.expiration {
			live = append(live, se)
		}
	}
	if len(live) == len(idx.all) {
		return live
	}
	kept := make(map[*series]bool, len(live))
	for _, se := range live {
		kept[se] = true
	}
	next := newSinkIndex()
	for h, keys := range idx.byHash {
		for _, k := range keys {
			if !kept[k.series] {
				continue
			}
			next.byHash[h] = append(next.byHash[h], k)
			next.keys++
		}
	}
	for id, se := range idx.byIdentity {
		if kept[se] {
			next.byIdentity[id] = se
			next.families[se.name] = se.kind
		}
	}
	next.all = live
	s.index.Store(next)
	return live
}
