package httpapi

import "strings"

// forbiddenNameReplacer replaces the characters the go-metrics Prometheus
// sinks replace by "_" in a metric name; the sink keeps their names so that
// dashboards and alerts written for them keep working.
var forbiddenNameReplacer = strings.NewReplacer(" ", "_", ".", "_", "=", "_", "-", "_", "/", "_")

// raftMetricName is the Prometheus name of a go-metrics key: its parts
// joined by "_" with the forbidden characters replaced by "_", exactly as
// the go-metrics Prometheus sinks name it. It allocates; the sink calls it
// only when it creates a series.
func raftMetricName(parts []string) string {
	return forbiddenNameReplacer.Replace(strings.Join(parts, "_"))
}
