package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/client/nsclient"
)

// memoryScenario fills a member with brokers x topics and reports its
// memory. With started members each shape gets fresh members; with -addrs
// the shapes accumulate on the same members.
type memoryScenario struct {
	Shapes    []shape       `json:"shapes"`
	TopicMode string        `json:"topicMode"`
	Parallel  int           `json:"parallel"`
	Queues    int           `json:"queues"`
	Settle    time.Duration `json:"settle"`

	pools []clientPool
}

// shape is a broker count and a topic count per broker.
type shape struct {
	Brokers int `json:"brokers"`
	Topics  int `json:"topics"`
}

func (s shape) String() string { return fmt.Sprintf("%dx%d", s.Brokers, s.Topics) }

// parseShape parses "BROKERSxTOPICS".
func parseShape(v string) (shape, error) {
	b, t, ok := strings.Cut(strings.ToLower(strings.TrimSpace(v)), "x")
	nb, err1 := strconv.Atoi(b)
	nt, err2 := strconv.Atoi(t)
	if !ok || err1 != nil || err2 != nil || nb < 1 || nt < 1 {
		return shape{}, fmt.Errorf("%q is not BROKERSxTOPICS", v)
	}
	return shape{Brokers: nb, Topics: nt}, nil
}

func (s *memoryScenario) bind(fs *flag.FlagSet) {
	fs.Func("shapes", "BROKERSxTOPICS,... (default 100x100,1000x100,1000x1000)", func(v string) error {
		var l listFlag
		l.Set(v)
		for _, item := range l {
			sh, err := parseShape(item)
			if err != nil {
				return err
			}
			s.Shapes = append(s.Shapes, sh)
		}
		return nil
	})
	fs.StringVar(&s.TopicMode, "topic-mode", "shared", "shared: every broker carries the same topics; unique: each broker its own")
	fs.IntVar(&s.Parallel, "parallel", 4, "registrations in flight while filling")
	fs.IntVar(&s.Queues, "queues", 8, "read and write queues per topic")
	fs.DurationVar(&s.Settle, "settle", 3*time.Second, "wait after filling before reading memory")
}

func (s *memoryScenario) check(_ *commonOptions, _ map[string]bool) error {
	if s.Shapes == nil {
		s.Shapes = []shape{{100, 100}, {1000, 100}, {1000, 1000}}
	}
	switch {
	case s.TopicMode != "shared" && s.TopicMode != "unique":
		return fmt.Errorf("%w: -topic-mode %q: want shared or unique", errUsage, s.TopicMode)
	case s.Parallel < 1 || s.Queues < 1:
		return fmt.Errorf("%w: -parallel and -queues must be at least 1", errUsage)
	case s.Settle < 0:
		return fmt.Errorf("%w: -settle must not be negative", errUsage)
	}
	return nil
}

// memoryRow is one shape.
type memoryRow struct {
	Shape          string  `json:"shape"`
	DistinctTopics int     `json:"distinctTopics"`
	FillSeconds    float64 `json:"fillSeconds"`
	RSSBefore      *int64  `json:"rssBeforeBytes,omitempty"`
	RSSAfter       *int64  `json:"rssAfterBytes,omitempty"`
	HeapInuse      *int64  `json:"heapInuseBytes,omitempty"`
	// PerQueueData is the RSS growth per broker-topic pair.
	PerQueueData float64 `json:"rssBytesPerBrokerTopic,omitempty"`
	// Registered is the leader's broker count when memory was read.
	Registered int `json:"registered"`
	// EntryBytes is the Raft entry of one broker's registration.
	EntryBytes int    `json:"raftEntryBytes"`
	LogEntries *int64 `json:"logEntries,omitempty"`
	DataDir    *int64 `json:"dataDirBytes,omitempty"`
}

func (s *memoryScenario) run(ctx context.Context, e *env, r *Report) error {
	defer func() {
		for _, p := range s.pools {
			p.close()
		}
	}()
	var rows []memoryRow
	for i, sh := range s.Shapes {
		if i > 0 && e.opts.starts() {
			e.stopMembers()
			if err := e.startMembers(ctx, e.opts.Members); err != nil {
				return err
			}
		}
		row, err := s.fill(ctx, e, sh, i)
		if err != nil {
			return fmt.Errorf("shape %s: %w", sh, err)
		}
		rows = append(rows, row)
	}
	r.show(rows, s.table(rows))
	if !e.opts.starts() {
		r.notef("the members were not started by the tool: the shapes accumulate on the same members")
	}
	if rows[0].RSSAfter == nil {
		r.notef("RSS unknown: no pid (members not started by the tool, no -pid) and no -http metrics")
	}
	r.notef("RSS is read %v after filling; Go returns freed memory to the OS lazily, so RSS includes garbage and the heap column is the live estimate", s.Settle)
	return nil
}

// fill registers the shape's brokers through the leader and measures.
func (s *memoryScenario) fill(ctx context.Context, e *env, sh shape, index int) (memoryRow, error) {
	row := memoryRow{Shape: sh.String()}
	leader, err := e.leader(ctx)
	if err != nil {
		return row, err
	}
	n := newNaming()
	group := "mem" + strconv.Itoa(index)
	shared := topicConfigs(n.topics(group, sh.Topics), int32(s.Queues))
	regs := make([]*nsclient.Registration, sh.Brokers)
	for i := range regs {
		configs := shared
		if s.TopicMode == "unique" {
			configs = topicConfigs(n.topics(fmt.Sprintf("%s-%d", group, i), sh.Topics), int32(s.Queues))
		}
		regs[i] = n.broker(group, i, configs)
	}
	row.DistinctTopics = sh.Topics
	if s.TopicMode == "unique" {
		row.DistinctTopics = sh.Topics * sh.Brokers
	}
	if row.EntryBytes, _, err = entrySize(regs[0], nsclient.Version5); err != nil {
		return row, err
	}
	if rss, _, ok := leader.rssBytes(ctx); ok {
		row.RSSBefore = &rss
	}
	e.logf("memory: filling %s (%s topics) through %s", sh, s.TopicMode, leader.ID)
	t0 := time.Now()
	// The brokers stay registered while these connections are open; run
	// closes them after the last shape.
	pool := e.newClients(s.Parallel)
	s.pools = append(s.pools, pool)
	if err := registerAll(ctx, pool, leader.ClientAddr, regs); err != nil {
		return row, err
	}
	row.FillSeconds = time.Since(t0).Seconds()
	if idx, ok := appliedIndex(ctx, leader); ok {
		if err := e.waitApplied(ctx, idx); err != nil {
			return row, err
		}
		v := int64(idx)
		row.LogEntries = &v
	}
	if err := sleepCtx(ctx, s.Settle); err != nil {
		return row, err
	}
	s.readMemory(ctx, leader, sh, &row)
	if st, err := leader.Status(ctx); err == nil {
		row.Registered = st.Brokers
	}
	return row, nil
}

func (s *memoryScenario) readMemory(ctx context.Context, m *member, sh shape, row *memoryRow) {
	if rss, _, ok := m.rssBytes(ctx); ok {
		row.RSSAfter = &rss
		if row.RSSBefore != nil {
			row.PerQueueData = float64(rss-*row.RSSBefore) / float64(sh.Brokers*sh.Topics)
		}
	}
	if mt, err := m.metrics(ctx); err == nil {
		if v, ok := mt["go_memstats_heap_inuse_bytes"]; ok {
			h := int64(v)
			row.HeapInuse = &h
		}
	}
	if d, ok := m.dataDirBytes(); ok {
		row.DataDir = &d
	}
}

func (s *memoryScenario) table(rows []memoryRow) Table {
	t := Table{
		Title:   fmt.Sprintf("leader memory holding brokers x topics (%s topics, %d queues each)", s.TopicMode, s.Queues),
		Columns: []string{"brokers x topics", "registered", "distinct topics", "fill s", "RSS before", "RSS after", "heap in use", "RSS per broker-topic", "entry per broker", "last index", "data dir"},
	}
	for _, r := range rows {
		t.add(r.Shape, r.Registered, r.DistinctTopics, r.FillSeconds, ptrSize(r.RSSBefore), ptrSize(r.RSSAfter), ptrSize(r.HeapInuse),
			perPair(r.PerQueueData), sizeCell(int64(r.EntryBytes)), ptrInt(r.LogEntries), ptrSize(r.DataDir))
	}
	return t
}
