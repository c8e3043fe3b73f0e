package httpapi

import (
	"fmt"
	"sync"

	armon "github.com/armon/go-metrics"
	hcmetrics "github.com/hashicorp/go-metrics"
	"github.com/prometheus/client_golang/prometheus"
)

var installOnce sync.Once

// InstallRaftMetrics routes the metrics hashicorp/raft (raft_*) and
// raft-boltdb (raft_boltdb_*) emit through their process-wide go-metrics
// sinks into reg, through one RaftSink with default options. It takes
// effect once per process.
func InstallRaftMetrics(reg prometheus.Registerer) error {
	var err error
	installOnce.Do(func() { err = installRaftMetrics(reg, NewRaftSink(RaftSinkOptions{})) })
	return err
}

func installRaftMetrics(reg prometheus.Registerer, sink *RaftSink) error {
	if err := reg.Register(sink); err != nil {
		return fmt.Errorf("raft metrics sink: %w", err)
	}
	hcCfg := hcmetrics.DefaultConfig("")
	hcCfg.EnableHostname, hcCfg.EnableRuntimeMetrics, hcCfg.EnableServiceLabel = false, false, false
	if _, err := hcmetrics.NewGlobal(hcCfg, sink); err != nil {
		return fmt.Errorf("raft metrics: %w", err)
	}
	armonCfg := armon.DefaultConfig("")
	armonCfg.EnableHostname, armonCfg.EnableRuntimeMetrics, armonCfg.EnableServiceLabel = false, false, false
	if _, err := armon.NewGlobal(armonCfg, sink.ForArmon()); err != nil {
		return fmt.Errorf("raft-boltdb metrics: %w", err)
	}
	return nil
}
