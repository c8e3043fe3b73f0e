package httpapi

import (
	"fmt"
	"sync"

	armon "github.com/armon/go-metrics"
	armonprom "github.com/armon/go-metrics/prometheus"
	hcmetrics "github.com/hashicorp/go-metrics"
	hcprom "github.com/hashicorp/go-metrics/prometheus"
	"github.com/prometheus/client_golang/prometheus"
)

var installOnce sync.Once

// InstallRaftMetrics routes the metrics hashicorp/raft (raft_*) and
// raft-boltdb (raft_boltdb_*) emit through their process-wide go-metrics
// sinks into reg. It takes effect once per process.
func InstallRaftMetrics(reg prometheus.Registerer) error {
	var err error
	installOnce.Do(func() { err = installRaftMetrics(reg) })
	return err
}

func installRaftMetrics(reg prometheus.Registerer) error {
	hcSink, err := hcprom.NewPrometheusSinkFrom(hcprom.PrometheusOpts{Registerer: reg, Name: "raftns_raft_metrics"})
	if err != nil {
		return fmt.Errorf("raft metrics sink: %w", err)
	}
	hcCfg := hcmetrics.DefaultConfig("")
	hcCfg.EnableHostname, hcCfg.EnableRuntimeMetrics, hcCfg.EnableServiceLabel = false, false, false
	if _, err := hcmetrics.NewGlobal(hcCfg, hcSink); err != nil {
		return fmt.Errorf("raft metrics: %w", err)
	}
	armonSink, err := armonprom.NewPrometheusSinkFrom(armonprom.PrometheusOpts{Registerer: reg, Name: "raftns_boltdb_metrics"})
	if err != nil {
		return fmt.Errorf("raft-boltdb metrics sink: %w", err)
	}
	armonCfg := armon.DefaultConfig("")
	armonCfg.EnableHostname, armonCfg.EnableRuntimeMetrics, armonCfg.EnableServiceLabel = false, false, false
	if _, err := armon.NewGlobal(armonCfg, armonSink); err != nil {
		return fmt.Errorf("raft-boltdb metrics: %w", err)
	}
	return nil
}
