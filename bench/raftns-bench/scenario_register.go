package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/raftns/raftns/client/nsclient"
)

// registerScenario measures REGISTER_BROKER through one member: each worker
// is one broker on its own connection registering in a closed loop, with a
// new DataVersion each time (a Raft write) or, with -unchanged, the same one
// (a heartbeat the members deduplicate).
type registerScenario struct {
	loadFlags
	Clients   int  `json:"clients"`
	Topics    int  `json:"topics"`
	Unchanged bool `json:"unchanged"`
	viaFlag
	Compressed bool `json:"compressed"`
}

func (s *registerScenario) bind(fs *flag.FlagSet) {
	s.loadFlags.bind(fs, 5*time.Second, "")
	fs.IntVar(&s.Clients, "clients", 4, "concurrent brokers, each with its own connection")
	fs.IntVar(&s.Topics, "topics", 10, "topics per broker")
	fs.BoolVar(&s.Unchanged, "unchanged", false, "re-send the same DataVersion (heartbeat-style, deduplicated)")
	s.viaFlag.bind(fs, "member to register through: leader or follower (with -addrs and no -http: the first address)")
	fs.BoolVar(&s.Compressed, "compressed", false, "send compressed bodies (4.x compressedRegister)")
}

func (s *registerScenario) check(c *commonOptions, set map[string]bool) error {
	if err := s.loadFlags.check(); err != nil {
		return err
	}
	if s.Clients < 1 || s.Topics < 0 {
		return fmt.Errorf("%w: -clients must be at least 1 and -topics not negative", errUsage)
	}
	return s.viaFlag.check(c, set)
}

// registerResults is the outcome of the run.
type registerResults struct {
	Member string `json:"member"`
	Role   string `json:"role,omitempty"`
	Mode   string `json:"mode"`
	throughput
	// LogEntries is the growth of the leader's last index during the run,
	// warm-up included; -1 when unknown.
	LogEntries int64 `json:"logEntries"`
	// Written and Deduped are the members' ns_register_*_total deltas.
	Written float64 `json:"written"`
	Deduped float64 `json:"deduped"`
}

func (s *registerScenario) run(ctx context.Context, e *env, r *Report) error {
	via, err := e.pick(ctx, s.Via)
	if err != nil {
		return err
	}
	n := newNaming()
	regs := make([]*nsclient.Registration, s.Clients)
	for i := range regs {
		regs[i] = n.broker("reg", i, topicConfigs(n.topics(fmt.Sprintf("reg%d", i), s.Topics), 8))
		regs[i].Compressed = s.Compressed
	}
	clients := e.newClients(s.Clients)
	defer clients.close()
	if err := registerAll(ctx, clients, via.ClientAddr, regs); err != nil {
		return err
	}
	before := e.snapshotCounters(ctx)
	mode := map[bool]string{false: "changed DataVersion (written)", true: "unchanged (heartbeat)"}[s.Unchanged]
	e.logf("register: %d brokers x %d topics through %s, %s, %v", s.Clients, s.Topics, via.ID, mode, s.Duration)
	out := s.phase(s.Clients).run(ctx, func(ctx context.Context, w int) error {
		if !s.Unchanged {
			bump(regs[w])
		}
		_, err := clients[w].RegisterBroker(ctx, via.ClientAddr, regs[w])
		return err
	})
	after := e.snapshotCounters(ctx)
	if len(out.lat) == 0 {
		return fmt.Errorf("register: %w: %v", errNoSuccess, out.firstErr)
	}
	res := registerResults{Member: via.ID, Mode: mode, throughput: throughputOf(out.lat, out.errors, out.elapsed),
		LogEntries: -1, Written: after.written - before.written, Deduped: after.deduped - before.deduped}
	if before.known && after.known {
		res.LogEntries = int64(after.lastIndex) - int64(before.lastIndex)
		res.Role = via.role(ctx)
	}
	r.show(res, s.table(res))
	if out.firstErr != nil {
		r.notef("%d requests failed; first error: %v", out.errors, out.firstErr)
	}
	if !before.known {
		r.notef("log growth and written/deduplicated counts unknown (no -http)")
	}
	return nil
}

func (s *registerScenario) table(res registerResults) Table {
	t := Table{
		Title:   fmt.Sprintf("REGISTER_BROKER, %d brokers x %d topics, %s", s.Clients, s.Topics, res.Mode),
		Columns: []string{"via", "requests", "errors", "ops/s", "p50 ms", "p99 ms", "p999 ms", "max ms", "log entries", "written", "deduped", "entries/write"},
	}
	via := res.Member
	if res.Role != "" {
		via += " (" + res.Role + ")"
	}
	logEntries, perWrite := any(res.LogEntries), any("-")
	if res.LogEntries < 0 {
		logEntries = "-"
	} else if res.Written > 0 {
		// Log entries per registration written: 1.00 when each write
		// costs its own entry and nothing more.
		perWrite = fmt.Sprintf("%.2f", float64(res.LogEntries)/res.Written)
	}
	row := append([]any{via}, res.cells()...)
	t.add(append(row, logEntries, int64(res.Written), int64(res.Deduped), perWrite)...)
	return t
}
