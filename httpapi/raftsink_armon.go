package httpapi

import (
	armon "github.com/armon/go-metrics"
	hcmetrics "github.com/hashicorp/go-metrics"
)

// armonRaftSink feeds a RaftSink from armon/go-metrics, the metrics library
// raft-boltdb uses; its interface is go-metrics' with its own Label type.
type armonRaftSink struct{ sink *RaftSink }

var _ armon.MetricSink = armonRaftSink{}

// ForArmon returns the sink as an armon/go-metrics sink.
func (s *RaftSink) ForArmon() armon.MetricSink { return armonRaftSink{sink: s} }

func (a armonRaftSink) SetGauge(key []string, val float32) { a.sink.SetGauge(key, val) }

func (a armonRaftSink) SetGaugeWithLabels(key []string, val float32, labels []armon.Label) {
	a.sink.SetGaugeWithLabels(key, val, fromArmonLabels(labels))
}

// EmitKey is ignored, as RaftSink.EmitKey.
func (a armonRaftSink) EmitKey([]string, float32) {}

func (a armonRaftSink) IncrCounter(key []string, val float32) { a.sink.IncrCounter(key, val) }

func (a armonRaftSink) IncrCounterWithLabels(key []string, val float32, labels []armon.Label) {
	a.sink.IncrCounterWithLabels(key, val, fromArmonLabels(labels))
}

func (a armonRaftSink) AddSample(key []string, val float32) { a.sink.AddSample(key, val) }

func (a armonRaftSink) AddSampleWithLabels(key []string, val float32, labels []armon.Label) {
	a.sink.AddSampleWithLabels(key, val, fromArmonLabels(labels))
}

// fromArmonLabels converts labels; it allocates only when there are some,
// and raft-boltdb emits none.
func fromArmonLabels(labels []armon.Label) []hcmetrics.Label {
	if len(labels) == 0 {
		return nil
	}
	out := make([]hcmetrics.Label, len(labels))
	for i, l := range labels {
		out[i] = hcmetrics.Label(l)
	}
	return out
}
