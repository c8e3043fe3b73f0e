package httpapi

import (
	"hash/maphash"
	"maps"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	hcmetrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
)

// seriesKind separates gauges, counters and histograms of the same key,
// as the go-metrics Prometheus sinks keep them in separate maps.
type seriesKind uint8

const (
	kindGauge seriesKind = iota + 1
	kindCounter
	kindHistogram
)

// series is one exported metric. Exactly one of gauge, counter and
// histogram is set, or none when its name or labels cannot be exported
// (its updates are then counted as invalid).
type series struct {
	kind      seriesKind
	name      string
	gauge     prometheus.Gauge
	counter   prometheus.Counter
	histogram prometheus.Histogram
	// touched is set by updates and cleared by collections, which then
	// advance lastSeen: an update costs no clock read.
	touched atomic.Bool
	// lastSeen is guarded by RaftSink.mu.
	lastSeen time.Time
}

func (se *series) touch() {
	if !se.touched.Load() {
		se.touched.Store(true)
	}
}

func (se *series) valid() bool {
	return se.gauge != nil || se.counter != nil || se.histogram != nil
}

// seriesKey is one spelling of a go-metrics key and labels, found by a
// hash of the parts as given so that a lookup builds no name. Several keys
// may name the same series: ["a.b"] and ["a", "b"] flatten to the same
// name, and labels may come in another order; creation maps such a key to
// the existing series.
type seriesKey struct {
	kind   seriesKind
	parts  []string
	labels []hcmetrics.Label
	series *series
}

func (k *seriesKey) matches(kind seriesKind, parts []string, labels []hcmetrics.Label) bool {
	return k.kind == kind && slices.Equal(k.labels, labels) && slices.Equal(k.parts, parts)
}

// sinkIndex finds series. It is never changed once published.
type sinkIndex struct {
	byHash map[uint64][]*seriesKey
	keys   int
	// byIdentity holds the exported series by kind, name and sorted
	// labels; families holds the kind of each exported name. Both are
	// used only when a series is created.
	byIdentity map[string]*series
	families   map[string]seriesKind
	all        []*series
}

func newSinkIndex() *sinkIndex {
	return &sinkIndex{byHash: map[uint64][]*seriesKey{}, byIdentity: map[string]*series{}, families: map[string]seriesKind{}}
}

func (idx *sinkIndex) clone() *sinkIndex {
	return &sinkIndex{
		byHash:     maps.Clone(idx.byHash),
		keys:       idx.keys,
		byIdentity: maps.Clone(idx.byIdentity),
		families:   maps.Clone(idx.families),
		all:        append(make([]*series, 0, len(idx.all)+1), idx.all...),
	}
}

// add records k under hash h, and k's series if it is new.
func (idx *sinkIndex) add(h uint64, k *seriesKey, identity string, isNew bool) {
	idx.byHash[h] = append(idx.byHash[h][:len(idx.byHash[h]):len(idx.byHash[h])], k)
	idx.keys++
	if !isNew {
		return
	}
	idx.all = append(idx.all, k.series)
	if k.series.valid() {
		idx.byIdentity[identity] = k.series
		idx.families[k.series.name] = k.series.kind
	}
}

// hash mixes kind, parts and labels; equal spellings hash equal, and a
// lookup confirms a hit by comparing them. Each string is hashed on its own
// (maphash.String hashes a short string in a few nanoseconds) and mixed in
// by position.
func (s *RaftSink) hash(kind seriesKind, parts []string, labels []hcmetrics.Label) uint64 {
	h := uint64(kind)
	for _, p := range parts {
		h = mixHash(h, maphash.String(s.seed, p))
	}
	h = mixHash(h, uint64(len(parts)))
	for _, l := range labels {
		h = mixHash(h, maphash.String(s.seed, l.Name))
		h = mixHash(h, maphash.String(s.seed, l.Value))
	}
	return h & s.hashMask
}

func mixHash(h, x uint64) uint64 {
	return (bits.RotateLeft64(h, 29) ^ x) * 0x9e3779b97f4a7c15
}

// series returns the series of a key, creating it if there is room, or
// nil (counting the update as dropped).
func (s *RaftSink) series(kind seriesKind, parts []string, labels []hcmetrics.Label) *series {
	h := s.hash(kind, parts, labels)
	idx := s.index.Load()
	for _, k := range idx.byHash[h] {
		if k.matches(kind, parts, labels) {
			return s.usable(k.series)
		}
	}
	if idx.keys >= s.maxSeries {
		s.droppedCap.Add(1)
		return nil
	}
	return s.usable(s.create(h, kind, parts, labels))
}

func (s *RaftSink) usable(se *series) *series {
	if se == nil {
		return nil
	}
	se.touch()
	if !se.valid() {
		s.droppedInvalid.Add(1)
		return nil
	}
	return se
}

// create adds a key and, unless an equal series exists, its series.
func (s *RaftSink) create(h uint64, kind seriesKind, parts []string, labels []hcmetrics.Label) *series {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx := s.index.Load()
	for _, k := range idx.byHash[h] {
		if k.matches(kind, parts, labels) {
			return k.series
		}
	}
	if idx.keys >= s.maxSeries {
		s.droppedCap.Add(1)
		return nil
	}
	name := raftMetricName(parts)
	k := &seriesKey{kind: kind, parts: append([]string(nil), parts...), labels: append([]hcmetrics.Label(nil), labels...)}
	constLabels := prometheus.Labels{}
	for _, l := range labels {
		constLabels[l.Name] = l.Value
	}
	identity := seriesIdentity(kind, name, constLabels)
	next := idx.clone()
	k.series = next.byIdentity[identity]
	isNew := k.series == nil
	if isNew {
		k.series = &series{kind: kind, name: name, lastSeen: s.now()}
		if !next.conflicts(kind, name) {
			newMetric(k.series, constLabels)
		}
	}
	next.add(h, k, identity, isNew)
	s.index.Store(next)
	return k.series
}

// seriesIdentity is what makes two series the same metric for Prometheus.
func seriesIdentity(kind seriesKind, name string, labels prometheus.Labels) string {
	names := make([]string, 0, len(labels))
	for n := range labels {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteByte(byte(kind))
	b.WriteString(name)
	for _, n := range names {
		b.WriteByte(0)
		b.WriteString(n)
		b.WriteByte(0)
		b.WriteString(labels[n])
	}
	return b.String()
}

// histogramSuffixes are the names a histogram's series use besides its own.
var histogramSuffixes = []string{"_bucket", "_sum", "_count"}

// conflicts reports whether exporting name as kind would make the registry's
// Gather fail: a name exported with two types, or a histogram's
// _bucket/_sum/_count names taken by another metric. One bad key must not
// take every metric of /metrics down with it.
func (idx *sinkIndex) conflicts(kind seriesKind, name string) bool {
	if k, ok := idx.families[name]; ok && k != kind {
		return true
	}
	for _, suffix := range histogramSuffixes {
		if base, ok := strings.CutSuffix(name, suffix); ok && idx.families[base] == kindHistogram {
			return true
		}
		if _, ok := idx.families[name+suffix]; ok && kind == kindHistogram {
			return true
		}
	}
	return false
}

// The help texts depend on the kind only, so every series of a name has the same.
const (
	raftGaugeHelp     = "Raft gauge reported through go-metrics."
	raftCounterHelp   = "Raft counter reported through go-metrics."
	raftHistogramHelp = "Raft sample reported through go-metrics; timings are in milliseconds."
)

// newMetric gives se its Prometheus metric, or none if its name or labels
// are not valid (the registry would fail every Gather, or the histogram
// constructor would panic on an "le" label).
func newMetric(se *series, labels prometheus.Labels) {
	if err := prometheus.NewDesc(se.name, "-", nil, labels).Err(); err != nil {
		return
	}
	switch se.kind {
	case kindGauge:
		se.gauge = prometheus.NewGauge(prometheus.GaugeOpts{Name: se.name, Help: raftGaugeHelp, ConstLabels: labels})
	case kindCounter:
		se.counter = prometheus.NewCounter(prometheus.CounterOpts{Name: se.name, Help: raftCounterHelp, ConstLabels: labels})
	case kindHistogram:
		if _, ok := labels["le"]; ok {
			return
		}
		se.histogram = prometheus.NewHistogram(prometheus.HistogramOpts{Name: se.name, Help: raftHistogramHelp,
			ConstLabels: labels, Buckets: raftSampleBuckets})
	}
}
