package httpapi

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/protocol/acl"
)

var (
	descMemInUse  = prometheus.NewDesc("ns_request_memory_bytes", "Request bytes held now (frames read, bodies inflated).", nil, nil)
	descMemLimit  = prometheus.NewDesc("ns_request_memory_limit_bytes", "The request-memory budget (--max-request-memory).", nil, nil)
	descMemPeak   = prometheus.NewDesc("ns_request_memory_peak_bytes", "The most request bytes held at once.", nil, nil)
	descMemRefuse = prometheus.NewDesc("ns_request_memory_refused_total", "Requests or body chunks refused by the request-memory budget (answered SYSTEM_BUSY).", nil, nil)
	descACLDenied = prometheus.NewDesc("ns_acl_denied_total", "Requests refused by RocketMQ-port access control (NO_PERMISSION), by reason.", []string{"reason"}, nil)
	descAdminAuth = prometheus.NewDesc("ns_admin_unauthorized_total", "Admin HTTP requests refused for a missing or wrong token.", nil, nil)

	descAdminConns       = prometheus.NewDesc("ns_admin_connections", "Open admin HTTP connections (--http-max-connections).", nil, nil)
	descAdminReclaimed   = prometheus.NewDesc("ns_admin_connections_reclaimed_total", "Idle, unread or anonymous admin connections closed to make room for a new one at --http-max-connections.", nil, nil)
	descAdminWatchers    = prometheus.NewDesc("ns_admin_anonymous_watchers", "Watchers without the admin token now (--watch-max-anonymous).", nil, nil)
	descAdminWatchRefuse = prometheus.NewDesc("ns_admin_anonymous_watchers_refused_total", "Watchers without the admin token refused (429) by --watch-max-anonymous or --watch-max-anonymous-per-addr.", nil, nil)
	descAdminStuck       = prometheus.NewDesc("ns_admin_watch_streams_stuck_total", "Watch streams closed because the client took nothing within --watch-write-timeout.", nil, nil)
	descAdminCrossOrigin = prometheus.NewDesc("ns_admin_cross_origin_refused_total", "State-changing admin requests refused as cross-origin browser requests.", nil, nil)
)

// securityCollector exports the request-memory budget and access-control
// refusals.
type securityCollector struct {
	budget *membudget.Budget
	acl    *acl.Checker
}

// NewSecurityCollector exports budget's use and acl's refusals; either
// may be nil.
func NewSecurityCollector(budget *membudget.Budget, checker *acl.Checker) prometheus.Collector {
	return &securityCollector{budget: budget, acl: checker}
}

func (c *securityCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descMemInUse, descMemLimit, descMemPeak, descMemRefuse, descACLDenied} {
		ch <- d
	}
}

func (c *securityCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(descMemInUse, prometheus.GaugeValue, float64(c.budget.InUse()))
	ch <- prometheus.MustNewConstMetric(descMemLimit, prometheus.GaugeValue, float64(c.budget.Limit()))
	ch <- prometheus.MustNewConstMetric(descMemPeak, prometheus.GaugeValue, float64(c.budget.Peak()))
	ch <- prometheus.MustNewConstMetric(descMemRefuse, prometheus.CounterValue, float64(c.budget.Refused()))
	denied := map[string]uint64{}
	if c.acl != nil {
		denied = c.acl.Denied()
	}
	for _, r := range acl.Reasons {
		ch <- prometheus.MustNewConstMetric(descACLDenied, prometheus.CounterValue, float64(denied[r]), r)
	}
}

// adminCollector exports the admin server's refusals.
type adminCollector struct{ s *Server }

// NewAdminCollector exports s's refusals and connection guard.
func NewAdminCollector(s *Server) prometheus.Collector { return &adminCollector{s: s} }

func (c *adminCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descAdminAuth, descAdminConns, descAdminReclaimed, descAdminWatchers,
		descAdminWatchRefuse, descAdminStuck, descAdminCrossOrigin} {
		ch <- d
	}
}

func (c *adminCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.s
	ch <- prometheus.MustNewConstMetric(descAdminAuth, prometheus.CounterValue, float64(s.Unauthorized()))
	ch <- prometheus.MustNewConstMetric(descAdminConns, prometheus.GaugeValue, float64(s.conns.open()))
	ch <- prometheus.MustNewConstMetric(descAdminReclaimed, prometheus.CounterValue, float64(s.conns.reclaimed.Load()))
	ch <- prometheus.MustNewConstMetric(descAdminWatchers, prometheus.GaugeValue, float64(s.watchers.inUse()))
	ch <- prometheus.MustNewConstMetric(descAdminWatchRefuse, prometheus.CounterValue, float64(s.watchers.refused.Load()))
	ch <- prometheus.MustNewConstMetric(descAdminStuck, prometheus.CounterValue, float64(s.stuckStreams.Load()))
	ch <- prometheus.MustNewConstMetric(descAdminCrossOrigin, prometheus.CounterValue, float64(s.refusedCrossOrigin.Load()))
}
