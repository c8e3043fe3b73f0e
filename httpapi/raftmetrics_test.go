package httpapi

import (
	"sync"
	"testing"
	"time"

	armon "github.com/armon/go-metrics"
	hcmetrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/raftns/raftns/cluster/clustertest"
)

var (
	raftMetricsOnce sync.Once
	raftMetricsReg  = prometheus.NewRegistry()
)

// installedRaftMetrics returns the registry InstallRaftMetrics feeds: Raft's
// metrics go to process-wide sinks, installed once per process.
func installedRaftMetrics(t *testing.T) *prometheus.Registry {
	t.Helper()
	raftMetricsOnce.Do(func() {
		if err := InstallRaftMetrics(raftMetricsReg); err != nil {
			t.Fatal(err)
		}
	})
	return raftMetricsReg
}

func TestInstallRaftMetrics_RoutesBothLibrariesIntoTheRegistry(t *testing.T) {
	reg := installedRaftMetrics(t)
	// The sinks are process-wide, so what an earlier run (-count) left is
	// subtracted.
	samples, sum, count := installedTestMetrics(gather(t, reg))
	hcmetrics.MeasureSince([]string{"raft", "test", "installed"}, time.Now().Add(-3*time.Millisecond))
	armon.IncrCounter([]string{"raft", "boltdb", "test", "installed"}, 2)
	node := clustertest.Single(t, nil)
	if err := node.Raft().Barrier(5 * time.Second).Error(); err != nil {
		t.Fatal(err)
	}

	mfs := gather(t, reg)
	samples2, sum2, count2 := installedTestMetrics(mfs)
	if samples2-samples != 1 || sum2-sum < 3 {
		t.Errorf("raft_test_installed gained %d samples summing to %.2f ms, want one of at least 3 ms", samples2-samples, sum2-sum)
	}
	if count2-count != 2 {
		t.Errorf("raft_boltdb_test_installed gained %v, want 2", count2-count)
	}
	// Raft's own metrics, from the member started above.
	for _, name := range []string{"raft_commitTime", "raft_fsm_applyBatch", "raft_apply", "raft_barrier", "raft_state_leader"} {
		if mfs[name] == nil {
			t.Errorf("%s missing from the registry; has %v", name, raftSeries(mfs))
		}
	}
	if h := mfs["raft_commitTime"].GetMetric(); len(h) == 0 || h[0].GetHistogram().GetSampleCount() == 0 {
		t.Errorf("raft_commitTime has no samples: %v", h)
	}
	if mfs["ns_raft_metrics_series"] == nil {
		t.Error("the sink's own metrics are missing")
	}
}

// installedTestMetrics reads the timer and the counter the routing test
// emits: the timer's sample count and sum, and the counter's value; zero
// before the first emission.
func installedTestMetrics(mfs map[string]*dto.MetricFamily) (samples uint64, sum, count float64) {
	if m := mfs["raft_test_installed"].GetMetric(); len(m) == 1 {
		samples, sum = m[0].GetHistogram().GetSampleCount(), m[0].GetHistogram().GetSampleSum()
	}
	if m := mfs["raft_boltdb_test_installed"].GetMetric(); len(m) == 1 {
		count = m[0].GetCounter().GetValue()
	}
	return samples, sum, count
}
