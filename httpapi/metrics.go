package httpapi

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/raft"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/namesrv"
	"github.com/raftns/raftns/protocol/remoting"
)

// Metrics holds the member's Prometheus registry. Request metrics are fed
// by the protocol server through ObserveRequest; everything else is read
// from the node at scrape time.
type Metrics struct {
	Registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// observers caches the labelled children per request and response
	// code (a label lookup hashes and compares label strings under a lock
	// on every request); its size is bounded by maxCachedObservers.
	observers     sync.Map // uint64 → requestObserver
	observerCount atomic.Int32
	// succeeded holds the children of each request code below
	// len(succeeded) answered SUCCESS, the common case, found by index
	// rather than through the map.
	succeeded [directObservers]atomic.Pointer[requestObserver]
}

// directObservers bounds the request codes whose successful answers find
// their children by index (every code RocketMQ defines is below it).
const directObservers = 1024

// requestObserver is the labelled children one (request code, response
// code) pair feeds.
type requestObserver struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

// maxCachedObservers bounds the cached children: request codes come from
// clients, so past this many pairs the labels are looked up per request.
const maxCachedObservers = 1024

// NewMetrics registers the name-server and Raft metrics of node (listed in
// docs/operators/operations.md) plus Go runtime and process metrics. extra collectors (for
// example connection counters) are registered too.
func NewMetrics(node *cluster.Node, extra ...prometheus.Collector) *Metrics {
	return NewMetricsIn(prometheus.NewRegistry(), node, extra...)
}

// NewMetricsIn is NewMetrics with a given registry, for example one that
// InstallRaftMetrics already feeds.
func NewMetricsIn(reg *prometheus.Registry, node *cluster.Node, extra ...prometheus.Collector) *Metrics {
	m := &Metrics{
		Registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ns_requests_total", Help: "Requests answered, by request code and response code.",
		}, []string{"code", "response"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "ns_request_duration_seconds", Help: "Time to answer a request, by request code.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"code"}),
	}
	m.Registry.MustRegister(m.requests, m.latency, &nodeCollector{node: node}, &auditCollector{node: node}, buildInfoGauge(),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, c := range extra {
		m.Registry.MustRegister(c)
	}
	return m
}

// buildInfoGauge is raftns_build_info: always 1, its labels name the build.
func buildInfoGauge() prometheus.Collector {
	in := buildinfo.Get()
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "raftns_build_info",
		Help: "Always 1; the labels name this member's build: release, module version, commit and Go version.",
		ConstLabels: prometheus.Labels{"release": in.Release, "module": in.Module, "commit": in.Commit,
			"goversion": in.GoVersion},
	})
	g.Set(1)
	return g
}

// ObserveRequest implements namesrv.Observer.
func (m *Metrics) ObserveRequest(code, responseCode int32, elapsed time.Duration) {
	o := m.observer(code, responseCode)
	o.requests.Inc()
	o.latency.Observe(elapsed.Seconds())
}

// observer returns the children of a request and response code, cached
// while the cache has room.
func (m *Metrics) observer(code, responseCode int32) requestObserver {
	direct := responseCode == remoting.Success && code >= 0 && int(code) < len(m.succeeded)
	if direct {
		if o := m.succeeded[code].Load(); o != nil {
			return *o
		}
	}
	key := uint64(uint32(code))<<32 | uint64(uint32(responseCode))
	if o, ok := m.observers.Load(key); ok {
		return o.(requestObserver)
	}
	c := strconv.Itoa(int(code))
	if code == namesrv.UnsupportedRequest {
		c = "unsupported"
	}
	o := requestObserver{
		requests: m.requests.WithLabelValues(c, strconv.Itoa(int(responseCode))),
		latency:  m.latency.WithLabelValues(c),
	}
	if direct {
		m.succeeded[code].Store(&o)
		return o
	}
	if m.observerCount.Load() < maxCachedObservers {
		if _, loaded := m.observers.LoadOrStore(key, o); !loaded {
			m.observerCount.Add(1)
		}
	}
	return o
}

// nodeCollector reads the node's state at scrape time.
type nodeCollector struct{ node *cluster.Node }

var (
	descLeaderReady   = prometheus.NewDesc("ns_leader_ready", "1 on a leader that has taken office.", nil, nil)
	descReady         = prometheus.NewDesc("ns_ready", "1 while the member serves client reads.", nil, nil)
	descRaftState     = prometheus.NewDesc("ns_raft_state", "1 for the member's current Raft state.", []string{"state"}, nil)
	descApplied       = prometheus.NewDesc("ns_fsm_applied_index", "Last log index applied by the FSM.", nil, nil)
	descAppliedLag    = prometheus.NewDesc("ns_fsm_applied_lag", "Commit index minus the FSM's applied index.", nil, nil)
	descLastContact   = prometheus.NewDesc("ns_last_contact_seconds", "Seconds since the leader was last heard from (0 on the leader, -1 never).", nil, nil)
	descBrokers       = prometheus.NewDesc("ns_brokers_registered", "Registered brokers.", nil, nil)
	descTopics        = prometheus.NewDesc("ns_topics", "Topics with a route.", nil, nil)
	descExpirations   = prometheus.NewDesc("ns_expirations_total", "Brokers expired by this member as leader.", nil, nil)
	descRegWritten    = prometheus.NewDesc("ns_register_written_total", "Registrations written to the Raft log by this member as leader.", nil, nil)
	descRegDeduped    = prometheus.NewDesc("ns_register_deduped_total", "Registrations that changed nothing and wrote no entry.", nil, nil)
	descForwarded     = prometheus.NewDesc("ns_forwarded_total", "Writes forwarded, by direction.", []string{"direction"}, nil)
	descForwardFails  = prometheus.NewDesc("ns_forward_failures_total", "Forwarding attempts that failed and were retried or given up.", nil, nil)
	descLeaderChanges = prometheus.NewDesc("ns_leader_changes_total", "Leadership changes seen by this member.", nil, nil)
	descLeaderLost    = prometheus.NewDesc("ns_leader_loss_detected_total", "Times this member, as a follower, saw the leader's cluster port close and refuse connections and shortened its election timers.", nil, nil)
	descClusterReject = prometheus.NewDesc("ns_cluster_conns_rejected_total", "Cluster-port connections refused (failed TLS handshake or cluster-key challenge, unknown or missing protocol byte).", nil, nil)
	descWritesFailed  = prometheus.NewDesc("ns_writes_failed_total", "Client and broker writes taken by this member that failed, by outcome: not_applied (no leader took them) or unknown (a leader may have applied them).", []string{"outcome"}, nil)
	descLinearReads   = prometheus.NewDesc("ns_linearizable_reads_total", "Leader-checked reads that passed the leader check.", nil, nil)
	descRaftAppends   = prometheus.NewDesc("ns_raft_append_entries_sent_total", "Raft AppendEntries requests this member sent on its cluster port (heartbeats, replication, commit notices).", nil, nil)
	descCommitNotices = prometheus.NewDesc("ns_commit_notices_total", "AppendEntries without entries this member sent as the leader to tell a follower an answered change is committed.", nil, nil)
	descAdmission     = prometheus.NewDesc("ns_admission_waiting", "1 while this member, started on a new data dir, does not vote, by stage: "+
		"deciding (asking its initial peers whether they hold a cluster) or awaiting (waiting for the leader to re-admit it); "+
		"admissionReason in /v1/status and the log say for what.", []string{"stage"}, nil)
	descMemberZone = prometheus.NewDesc("ns_member_zone", "Always 1; the label is this member's zone (--zone). Absent when it has none.", []string{"zone"}, nil)
)

func (c *nodeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descLeaderReady, descReady, descRaftState, descApplied, descAppliedLag,
		descLastContact, descBrokers, descTopics, descExpirations, descRegWritten, descRegDeduped, descForwarded,
		descForwardFails, descLeaderChanges, descLeaderLost, descClusterReject, descWritesFailed, descLinearReads,
		descRaftAppends, descCommitNotices, descAdmission, descMemberZone} {
		ch <- d
	}
}

func (c *nodeCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.node.Status()
	stats := c.node.Stats()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	gauge(descLeaderReady, b2f(st.LeaderReady))
	gauge(descReady, b2f(st.Ready))
	if st.Zone != "" {
		gauge(descMemberZone, 1, st.Zone)
	}
	for _, s := range []raft.RaftState{raft.Follower, raft.Candidate, raft.Leader, raft.Shutdown} {
		gauge(descRaftState, b2f(st.State == s.String()), s.String())
	}
	gauge(descApplied, float64(st.AppliedIndex))
	lag := 0.0
	if st.CommitIndex > st.AppliedIndex {
		lag = float64(st.CommitIndex - st.AppliedIndex)
	}
	gauge(descAppliedLag, lag)
	contact := float64(st.LastContactMillis) / 1000
	if st.LastContactMillis < 0 {
		contact = -1
	}
	gauge(descLastContact, contact)
	gauge(descBrokers, float64(st.Brokers))
	gauge(descTopics, float64(st.Topics))
	sendCounters(ch, map[*prometheus.Desc]uint64{descExpirations: stats.Expirations.Load(),
		descRegWritten: stats.RegistersWritten.Load(), descRegDeduped: stats.RegistersDeduped.Load(),
		descForwardFails: stats.ForwardFailures.Load(), descLeaderChanges: stats.LeaderChanges.Load(),
		descLeaderLost: stats.LeaderLossDetected.Load(), descClusterReject: stats.ClusterConnsRejected.Load(),
		descLinearReads: stats.LinearizableReads.Load(), descRaftAppends: stats.RaftAppendsSent.Load(),
		descCommitNotices: stats.CommitNotices.Load()})
	counter(descForwarded, stats.ForwardedOut.Load(), "out")
	counter(descForwarded, stats.ForwardedIn.Load(), "in")
	counter(descWritesFailed, stats.WritesNotApplied.Load(), "not_applied")
	counter(descWritesFailed, stats.WritesOutcomeUnknown.Load(), "unknown")
	for _, stage := range []string{adminapi.AdmissionDeciding, adminapi.AdmissionAwaiting} {
		gauge(descAdmission, b2f(st.Admission == stage), stage)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ConnStats is the source of connection counters (remoting.Server).
type ConnStats interface{ Stats() remoting.ServerStats }

// connCollector exports the protocol server's connection counters.
type connCollector struct{ src ConnStats }

// NewConnCollector exports src's connection counters.
func NewConnCollector(src ConnStats) prometheus.Collector { return &connCollector{src: src} }

var (
	descConnsOpen     = prometheus.NewDesc("ns_connections_open", "Client and broker connections open.", nil, nil)
	descConnsAccepted = prometheus.NewDesc("ns_connections_accepted_total", "Connections accepted.", nil, nil)
	descConnsRejected = prometheus.NewDesc("ns_connections_rejected_total", "Connections closed at once by the connection limit.", nil, nil)
	descBadFrames     = prometheus.NewDesc("ns_bad_frames_total", "Connections closed because a frame did not decode.", nil, nil)
	descIdleClosed    = prometheus.NewDesc("ns_connections_idle_closed_total", "Connections closed by the idle timeout.", nil, nil)
	descPanics        = prometheus.NewDesc("ns_handler_panics_total", "Request handler panics recovered.", nil, nil)
	descSlowFrames    = prometheus.NewDesc("ns_slow_frames_total", "Connections closed because a started frame did not arrive within the frame timeout.", nil, nil)
	descBusy          = prometheus.NewDesc("ns_busy_total", "Requests answered SYSTEM_BUSY because the request-memory budget was spent.", nil, nil)
	descInline        = prometheus.NewDesc("ns_requests_inline_total", "Requests answered on their connection's read goroutine (cached route queries).", nil, nil)
)

func (c *connCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descConnsOpen, descConnsAccepted, descConnsRejected, descBadFrames, descIdleClosed, descPanics,
		descSlowFrames, descBusy, descInline} {
		ch <- d
	}
}

func (c *connCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.src.Stats()
	ch <- prometheus.MustNewConstMetric(descConnsOpen, prometheus.GaugeValue, float64(st.OpenConns))
	sendCounters(ch, map[*prometheus.Desc]uint64{descConnsAccepted: st.Accepted, descConnsRejected: st.RejectedByLimit,
		descBadFrames: st.BadFrames, descIdleClosed: st.IdleClosed, descPanics: st.HandlerPanics,
		descSlowFrames: st.SlowFrames, descBusy: st.Busy, descInline: st.Inline})
}

// sendCounters sends each descriptor's counter, without labels.
func sendCounters(ch chan<- prometheus.Metric, counters map[*prometheus.Desc]uint64) {
	for d, v := range counters {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v))
	}
}
