package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// routeScenario measures GET_ROUTEINFO_BY_TOPIC: closed-loop clients, each
// on its own connection, spread over the members.
type routeScenario struct {
	loadFlags
	Clients   int      `json:"clients"`
	Pipeline  int      `json:"pipeline"`
	Brokers   int      `json:"brokers"`
	Topics    int      `json:"topics"`
	Queues    int      `json:"queues"`
	NoSetup   bool     `json:"noSetup"`
	TopicList []string `json:"topicList,omitempty"`
	Decode    bool     `json:"decode"`
}

func (s *routeScenario) bind(fs *flag.FlagSet) {
	s.loadFlags.bind(fs, 10*time.Second, "")
	fs.IntVar(&s.Clients, "clients", 8, "concurrent clients, each with its own connection to each member")
	fs.IntVar(&s.Pipeline, "pipeline", 1, "requests in flight per client connection")
	fs.IntVar(&s.Brokers, "brokers", 4, "brokers to register first, each carrying every topic")
	fs.IntVar(&s.Topics, "topics", 100, "topics to register first and query")
	fs.IntVar(&s.Queues, "queues", 8, "read and write queues per topic and broker")
	fs.BoolVar(&s.NoSetup, "no-setup", false, "register nothing; query the -topic-list topics")
	fs.Var((*listFlag)(&s.TopicList), "topic-list", "topics to query with -no-setup, T1,T2,...")
	fs.BoolVar(&s.Decode, "decode", false, "decode every route body in the client (costs client CPU)")
}

func (s *routeScenario) check(*commonOptions, map[string]bool) error {
	if err := s.loadFlags.check(); err != nil {
		return err
	}
	switch {
	case s.Clients < 1 || s.Pipeline < 1:
		return fmt.Errorf("%w: -clients and -pipeline must be at least 1", errUsage)
	case s.NoSetup && len(s.TopicList) == 0:
		return fmt.Errorf("%w: -no-setup needs -topic-list", errUsage)
	case !s.NoSetup && (s.Brokers < 1 || s.Topics < 1 || s.Queues < 1):
		return fmt.Errorf("%w: -brokers, -topics and -queues must be at least 1", errUsage)
	}
	return nil
}

// routeRow is the outcome against one member (or all, in the total row).
type routeRow struct {
	Member  string `json:"member"`
	Clients int    `json:"clients"`
	throughput
	CPUSeconds float64 `json:"memberCpuSeconds,omitempty"`
	// QPSPerCore is requests per second of the member's own CPU time.
	QPSPerCore float64 `json:"qpsPerMemberCore,omitempty"`
}

type routeResults struct {
	Topics    int        `json:"topics"`
	BodyBytes int        `json:"routeBodyBytes"`
	Rows      []routeRow `json:"rows"`
}

func (s *routeScenario) run(ctx context.Context, e *env, r *Report) error {
	topics := s.TopicList
	if !s.NoSetup {
		var stop func()
		var err error
		if topics, stop, err = s.setup(ctx, e); err != nil {
			return err
		}
		defer stop()
	}
	size, err := routeBodySize(ctx, e, topics[0])
	if err != nil {
		return err
	}
	clients := e.newClients(s.Clients)
	defer clients.close()
	// The members' CPU time is read when the warm-up ends, so that it
	// covers the measured window only.
	cpuStart := make(chan map[string]float64, 1)
	time.AfterFunc(s.Warmup, func() { cpuStart <- memberCPU(ctx, e) })
	e.logf("route: %d clients x %d in flight over %d member(s), %d topics, %v", s.Clients, s.Pipeline, len(e.members), len(topics), s.Duration)
	out := s.phase(s.Clients*s.Pipeline).run(ctx, s.query(e.clientAddrs(), clients, topics))
	cpu := cpuDelta(memberCPU(ctx, e), <-cpuStart)
	if len(out.lat) == 0 {
		return fmt.Errorf("route: %w: %v", errNoSuccess, out.firstErr)
	}
	res := routeResults{Topics: len(topics), BodyBytes: size}
	res.Rows = s.rows(e, out, cpu)
	r.show(res, s.table(res))
	if out.firstErr != nil {
		r.notef("%d requests failed; first error: %v", out.errors, out.firstErr)
	}
	if len(cpu) == 0 {
		r.notef("member CPU time unknown (no pid and no -http)")
	}
	r.notef("the clients run on the same machine as the members and use CPU too")
	return nil
}

// setup registers the brokers through the first member, keeps them alive
// with a heartbeat to every member each 30 s (as brokers do) and waits
// until every member can route the topics. stop ends the heartbeats and
// closes the connections.
func (s *routeScenario) setup(ctx context.Context, e *env) (topics []string, stop func(), err error) {
	n := newNaming()
	topics = n.topics("route", s.Topics)
	configs := topicConfigs(topics, int32(s.Queues))
	regs := make([]*nsclient.Registration, s.Brokers)
	for i := range regs {
		regs[i] = n.broker("route", i, configs)
	}
	e.logf("route: registering %d brokers with %d topics", s.Brokers, s.Topics)
	pool := e.newClients(4)
	if err := registerAll(ctx, pool, e.members[0].ClientAddr, regs); err != nil {
		pool.close()
		return nil, nil, err
	}
	hb := startHeartbeats(ctx, e, regs, 30*time.Second)
	stop = func() {
		hb.stop()
		hb.client.Close()
		pool.close()
	}
	for _, m := range e.members {
		err := launch.Poll(ctx, readyTimeout, 20*time.Millisecond, "routes on member "+m.ID, func() (bool, error) {
			rd, err := pool[0].GetRoute(ctx, m.ClientAddr, topics[len(topics)-1])
			return err == nil && len(rd.BrokerDatas) == s.Brokers, nil
		})
		if err != nil {
			stop()
			return nil, nil, err
		}
	}
	return topics, stop, nil
}

// query returns the worker operation: one route request to the name server
// of the worker's client (client c asks addrs[c mod len]), for the next
// topic in turn.
func (s *routeScenario) query(addrs []string, clients []*nsclient.Client, topics []string) func(context.Context, int) error {
	reqs := make([]*remoting.Command, len(topics))
	for i, t := range topics {
		reqs[i] = &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA", Version: nsclient.Version5,
			ExtFields: map[string]string{"topic": t}}
	}
	next := make([]int, s.Clients*s.Pipeline)
	return func(ctx context.Context, w int) error {
		client := w / s.Pipeline
		addr := addrs[client%len(addrs)]
		i := (w + next[w]) % len(reqs)
		next[w]++
		resp, err := clients[client].Invoke(ctx, addr, reqs[i])
		if err != nil {
			return err
		}
		if s.Decode {
			_, err = body.DecodeTopicRouteData(resp.Body)
		}
		return err
	}
}

// rows splits the outcome per member: worker w used member (w/pipeline)
// mod members.
func (s *routeScenario) rows(e *env, out loadOutcome, cpu map[string]float64) []routeRow {
	var rows []routeRow
	var allCPU float64
	for mi, m := range e.members {
		var lat []time.Duration
		var errs int
		for w, wr := range out.workers {
			if (w/s.Pipeline)%len(e.members) != mi {
				continue
			}
			lat = append(lat, wr.lat...)
			errs += wr.errors
		}
		row := routeRow{Member: m.ID, throughput: throughputOf(lat, errs, out.elapsed)}
		for c := 0; c < s.Clients; c++ {
			if c%len(e.members) == mi {
				row.Clients++
			}
		}
		row.CPUSeconds = cpu[m.ID]
		allCPU += cpu[m.ID]
		if row.CPUSeconds > 0 {
			row.QPSPerCore = float64(row.Requests) / row.CPUSeconds
		}
		rows = append(rows, row)
	}
	if len(rows) > 1 {
		total := routeRow{Member: "all", Clients: s.Clients, throughput: throughputOf(out.lat, out.errors, out.elapsed), CPUSeconds: allCPU}
		if allCPU > 0 {
			total.QPSPerCore = float64(total.Requests) / allCPU
		}
		rows = append(rows, total)
	}
	return rows
}

func (s *routeScenario) table(res routeResults) Table {
	t := Table{
		Title:   fmt.Sprintf("GET_ROUTEINFO_BY_TOPIC, %d topics, route body %d bytes, %d in flight per connection", res.Topics, res.BodyBytes, s.Pipeline),
		Columns: []string{"member", "clients", "requests", "errors", "qps", "p50 ms", "p99 ms", "p999 ms", "max ms", "member cpu s", "q/cpu-s"},
	}
	for _, row := range res.Rows {
		cells := append([]any{row.Member, row.Clients}, row.cells()...)
		t.add(append(cells, orDash(row.CPUSeconds), orDash(row.QPSPerCore))...)
	}
	return t
}

// routeBodySize fetches one route and returns its body size.
func routeBodySize(ctx context.Context, e *env, topic string) (int, error) {
	c := e.newClient()
	defer c.Close()
	resp, err := c.Invoke(ctx, e.members[0].ClientAddr, &remoting.Command{Code: remoting.GetRouteInfoByTopic, Language: "JAVA",
		Version: nsclient.Version5, ExtFields: map[string]string{"topic": topic}})
	if err != nil {
		return 0, fmt.Errorf("route of %s: %w", topic, err)
	}
	return len(resp.Body), nil
}
