package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// scaleResult is what the scale scenario measured of one target.
type scaleResult struct {
	Target string `json:"target"`
	// Error ends the target's measurements early: the figures before it
	// are kept, the later ones are zero.
	Error string `json:"error,omitempty"`
	// FillSeconds: the first registration sent → every server lists every
	// broker in GET_BROKER_CLUSTER_INFO.
	FillSeconds    float64             `json:"fillSeconds"`
	FillFailed     int                 `json:"fillFailedRegistrations"`
	FillFirstError string              `json:"fillFirstError,omitempty"`
	Servers        []scaleServerResult `json:"servers"`
	// SteadyBeats are the heartbeats sent in the steady window.
	SteadyBeats beatCount      `json:"steadyHeartbeats"`
	Idle        scaleReads     `json:"idleReads"`
	StormReads  scaleReads     `json:"stormReads"`
	ReadRatio   float64        `json:"stormToIdleReadRatio"`
	Snapshot    *scaleSnapshot `json:"snapshot,omitempty"`
	Storm       stormOutcome   `json:"storm"`
	// Leader is the RaftNS leader and its term before and after the storm.
	LeaderBefore string       `json:"leaderBeforeStorm,omitempty"`
	LeaderAfter  string       `json:"leaderAfterStorm,omitempty"`
	Restart      scaleRestart `json:"restart"`
}

// scaleServerResult is one server after the fill and the steady window.
type scaleServerResult struct {
	ID        string `json:"id"`
	RSSBytes  *int64 `json:"rssBytes,omitempty"`
	HeapBytes *int64 `json:"heapBytes,omitempty"`
	// CPUPerSecond is CPU seconds per second over the steady window.
	CPUPerSecond float64      `json:"cpuPerSecond"`
	TopicList    answerFigure `json:"topicList"`
	ClusterInfo  answerFigure `json:"clusterInfo"`
}

// answerFigure is one whole-table answer: the median of three answered
// requests, out of at most six.
type answerFigure struct {
	Ms    float64 `json:"ms"`
	Bytes int     `json:"bytes"`
	// Failed requests and the last error (a member that is not ready
	// closes the connection).
	Failed int    `json:"failed"`
	Error  string `json:"error,omitempty"`
}

// scaleReads is a window of route reads.
type scaleReads struct {
	OpsPerS    float64 `json:"opsPerSecond"`
	Errors     int     `json:"errors"`
	P50Ms      float64 `json:"p50Ms"`
	P99Ms      float64 `json:"p99Ms"`
	FirstError string  `json:"firstError,omitempty"`
}

// scaleRestart is one server stopped and started again.
type scaleRestart struct {
	Server string `json:"server"`
	// AnswersMs: start → its first answer to GET_BROKER_CLUSTER_INFO;
	// CompleteMs: start → that answer lists every broker.
	AnswersMs  float64  `json:"answersMs"`
	CompleteMs float64  `json:"completeMs"`
	RestoreMs  *float64 `json:"restoreMs,omitempty"`
}

// measure runs the scale measurements against t, in order: fill, steady
// heartbeats, idle reads, snapshot, restart of one server, storm.
func (s *scaleScenario) measure(ctx context.Context, e *env, t scaleTarget, sb *scaleBrokers, reqs [2][]*remoting.Command) (scaleResult, error) {
	res := scaleResult{Target: t.label()}
	clients := newFleetClients(e, s.Conns, s.RegisterTimeout)
	defer clients.close()
	f := newScaleFleet(sb, slices.Clone(reqs[0]), t.addrs(), clients, s.RegisterTimeout, s.Heartbeat)
	probe := e.newClient()
	defer probe.Close()
	t0 := time.Now()
	s.fill(ctx, e, f, &res)
	// The heartbeats start at once: a registration that failed while
	// filling is sent again at its broker's next heartbeat, as a broker
	// would.
	stop := f.beat(ctx)
	defer stop()
	for i, addr := range f.addrs {
		if _, _, err := watchServer(ctx, probe, addr, f.brokers, s.Heartbeat+readyTimeout); err != nil {
			return res, fmt.Errorf("fill: server %s: %w", t.ids()[i], err)
		}
	}
	res.FillSeconds = time.Since(t0).Seconds()
	if err := s.steady(ctx, e, t, f, probe, &res); err != nil {
		return res, err
	}
	readers := e.newClients(s.Readers)
	defer readers.close()
	e.logf("scale: idle route reads for %v", s.ReadWindow)
	res.Idle = s.reads(ctx, t, readers, sb, s.ReadWindow)
	var err error
	if res.Snapshot, err = t.snapshot(ctx); err != nil {
		return res, fmt.Errorf("snapshot: %w", err)
	}
	// The restart comes before the storm, so that it measures a server
	// coming back to the full state, whatever the storm leaves.
	if res.Restart, err = s.restart(ctx, e, t, sb, probe); err != nil {
		return res, err
	}
	return res, s.storm(ctx, e, t, f, readers, reqs[1], &res)
}

// fill registers the fleet with every server, FillParallel at a time.
func (s *scaleScenario) fill(ctx context.Context, e *env, f *scaleFleet, res *scaleResult) {
	e.logf("scale: registering %d brokers with %d name servers (%d in flight)", len(f.brokers.regs), len(f.addrs), s.FillParallel)
	failed, first := f.fill(ctx, s.FillParallel)
	res.FillFailed = failed
	if first != nil {
		res.FillFirstError = first.Error()
		e.logf("scale: %d registrations failed, first: %v", failed, first)
	}
}

// steady lets the heartbeats run, then measures each server's CPU over the
// steady window, its memory and its whole-table answers.
func (s *scaleScenario) steady(ctx context.Context, e *env, t scaleTarget, f *scaleFleet, probe *nsclient.Client, res *scaleResult) error {
	if err := sleepCtx(ctx, s.Settle); err != nil {
		return err
	}
	e.logf("scale: steady heartbeats for %v", s.Steady)
	cpu0 := serverCPU(t)
	beats0, _ := f.beatCounts()
	t0 := time.Now()
	if err := sleepCtx(ctx, s.Steady); err != nil {
		return err
	}
	cpu1, elapsed := serverCPU(t), time.Since(t0).Seconds()
	beats1, lastErr := f.beatCounts()
	res.SteadyBeats = beatCount{Sent: beats1.Sent - beats0.Sent, Failed: beats1.Failed - beats0.Failed}
	if res.SteadyBeats.Failed > 0 {
		e.logf("scale: %d heartbeats failed in the steady window, last: %v", res.SteadyBeats.Failed, lastErr)
	}
	for i, id := range t.ids() {
		sr := scaleServerResult{ID: id, CPUPerSecond: (cpu1[i] - cpu0[i]) / elapsed}
		if rss, ok := pidRSS(t.pid(i)); ok {
			sr.RSSBytes = &rss
		}
		if h, ok := t.heapBytes(ctx, i); ok {
			sr.HeapBytes = &h
		}
		addr := t.addrs()[i]
		sr.TopicList = answerTime(ctx, probe, addr, remoting.GetAllTopicListFromNameSrv)
		sr.ClusterInfo = answerTime(ctx, probe, addr, remoting.GetBrokerClusterInfo)
		res.Servers = append(res.Servers, sr)
	}
	return nil
}

// serverCPU reads every server's CPU seconds so far (0 when unknown).
func serverCPU(t scaleTarget) []float64 {
	out := make([]float64, len(t.ids()))
	for i := range out {
		out[i], _ = procCPUSeconds(t.pid(i))
	}
	return out
}

// pidRSS is VmRSS of a process.
func pidRSS(pid int) (int64, bool) {
	kb, err := strconv.ParseInt(strings.TrimSuffix(procField(fmt.Sprintf("/proc/%d/status", pid), "VmRSS"), " kB"), 10, 64)
	return kb << 10, err == nil && pid > 0
}

// answerTime sends a whole-table request (no fields) until it has three
// answers, six times at most, and returns their median time, the answer's
// size and the failures.
func answerTime(ctx context.Context, c *nsclient.Client, addr string, code int32) answerFigure {
	var times []float64
	var fig answerFigure
	for i := 0; i < 6 && len(times) < 3; i++ {
		t0 := time.Now()
		resp, err := c.Invoke(ctx, addr, &remoting.Command{Code: code, Language: "JAVA", Version: nsclient.Version5})
		if err != nil {
			fig.Failed++
			fig.Error = err.Error()
			continue
		}
		times = append(times, ms(time.Since(t0)))
		fig.Bytes = len(resp.Body)
	}
	fig.Ms = median(times)
	return fig
}

// watchServer polls addr's GET_BROKER_CLUSTER_INFO until it lists every
// broker of sb, and returns when it first answered and when it first
// listed them all.
func watchServer(ctx context.Context, c *nsclient.Client, addr string, sb *scaleBrokers, timeout time.Duration) (answered, complete time.Time, err error) {
	err = launch.Poll(ctx, timeout, 100*time.Millisecond, "every broker listed by "+addr, func() (bool, error) {
		resp, err := c.Invoke(ctx, addr, &remoting.Command{Code: remoting.GetBrokerClusterInfo, Language: "JAVA", Version: nsclient.Version5})
		if err != nil {
			return false, nil
		}
		if answered.IsZero() {
			answered = time.Now()
		}
		ci, err := body.DecodeClusterInfo(resp.Body)
		if err != nil {
			return false, err
		}
		if sb.present(ci) == len(sb.regs) {
			complete = time.Now()
			return true, nil
		}
		return false, nil
	})
	return answered, complete, err
}

// reads runs route readers for window: reader c asks server c mod N, each
// for the next topic in turn, together ReadRate a second (0: as fast as
// they are answered).
func (s *scaleScenario) reads(ctx context.Context, t scaleTarget, readers clientPool, sb *scaleBrokers, window time.Duration) scaleReads {
	q := (&routeScenario{Clients: s.Readers, Pipeline: 1}).query(t.addrs(), readers, sb.topics)
	phase := loadPhase{workers: s.Readers, duration: window}
	if s.ReadRate > 0 {
		phase.pace = time.Duration(float64(s.Readers) / s.ReadRate * float64(time.Second))
	}
	out := phase.run(ctx, q)
	lat := summarize(out.lat)
	r := scaleReads{OpsPerS: rate(len(out.lat), out.elapsed), Errors: out.errors, P50Ms: lat.P50Ms, P99Ms: lat.P99Ms}
	if out.firstErr != nil {
		r.FirstError = out.firstErr.Error()
	}
	return r
}
