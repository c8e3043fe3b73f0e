package httpapi

import (
	"sync"
	"testing"
	"time"

	armon "github.com/armon/go-metrics"
	hcmetrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
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
	hcmetrics.MeasureSince([]string{"raft", "test", "installed"}, time.Now().Add(-3*time.Millisecond))
	armon.IncrCounter([]string{"raft", "boltdb", "test", "installed"}, 2)
	node := clustertest.Single(t, nil)
	if err := node.Raft().Barrier(5 * time.Second).Error(); err != nil {
		t.Fatal(err)
	}

	mfs := gather(t, reg)
	timer := mfs["raft_test_installed"].GetMetric()
	if len(timer) != 1 || timer[0].GetHistogram().GetSampleCount() != 1 || timer[0].GetHistogram().GetSampleSum() < 3 {
		t.Errorf("raft_test_installed = %v, want one sample of at least 3 ms", timer)
	}
	counter := mfs["raft_boltdb_test_installed"].GetMetric()
	if len(counter) != 1 || counter[0].GetCounter().GetValue() != 2 {
		t.Errorf("raft_boltdb_test_installed = %v, want 2", counter)
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
