package httpapi

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster"
)

// auditCollector exports the audit records this member applied, by kind.
type auditCollector struct{ node *cluster.Node }

var descAuditRecords = prometheus.NewDesc("ns_audit_records_total",
	"Audit records this member applied since it started, by kind (every member applies every record).", []string{"kind"}, nil)

func (c *auditCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descAuditRecords }

func (c *auditCollector) Collect(ch chan<- prometheus.Metric) {
	for kind, n := range c.node.AuditCounts() {
		ch <- prometheus.MustNewConstMetric(descAuditRecords, prometheus.CounterValue, float64(n), kind)
	}
}
