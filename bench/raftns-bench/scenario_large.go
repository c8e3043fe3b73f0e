package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/body"
)

// suggestedMaxEntry is hashicorp/raft's SuggestedMaxDataSize: entries above
// it slow replication and snapshots down (docs/contributors/design.md, "Entry size").
const suggestedMaxEntry = 512 << 10

// largeScenario registers one broker per size, each carrying that many
// topics, and reports what one full registration costs: request body, Raft
// entry, log growth, latency and the member's RSS; then the cost of the
// same registration re-sent unchanged (the 30 s heartbeat).
type largeScenario struct {
	Sizes      []int `json:"sizes"`
	Compressed bool  `json:"compressed"`
	Queues     int   `json:"queues"`
	viaFlag
	Heartbeats int `json:"heartbeats"`
	// RandomNames gives topics random names, which compress far worse than
	// the default numbered ones.
	RandomNames bool `json:"randomNames"`
}

func (s *largeScenario) bind(fs *flag.FlagSet) {
	fs.Func("sizes", "topics per broker, N,N,... (default 1000,5000,10000,20000)", intList(&s.Sizes))
	fs.BoolVar(&s.Compressed, "compressed", false, "send the compressed body form (both sizes are reported either way)")
	fs.IntVar(&s.Queues, "queues", 8, "read and write queues per topic")
	s.viaFlag.bind(fs, "member to register through: leader or follower")
	fs.IntVar(&s.Heartbeats, "heartbeats", 5, "unchanged re-registrations timed after the first")
	fs.BoolVar(&s.RandomNames, "random-names", false, "random 24-character topic names instead of numbered ones (compress worse)")
}

func (s *largeScenario) check(c *commonOptions, set map[string]bool) error {
	if s.Sizes == nil {
		s.Sizes = []int{1000, 5000, 10000, 20000}
	}
	for _, n := range s.Sizes {
		if n < 1 {
			return fmt.Errorf("%w: -sizes: %d is not a topic count", errUsage, n)
		}
	}
	if s.Queues < 1 || s.Heartbeats < 0 {
		return fmt.Errorf("%w: -queues must be at least 1 and -heartbeats not negative", errUsage)
	}
	return s.viaFlag.check(c, set)
}

// largeRow is one broker size.
type largeRow struct {
	Topics          int `json:"topics"`
	PlainBytes      int `json:"plainBodyBytes"`
	CompressedBytes int `json:"compressedBodyBytes"`
	EntryBytes      int `json:"raftEntryBytes"`
	// RawEntryBytes is the entry's size without the FSM's compression.
	RawEntryBytes int     `json:"rawEntryBytes"`
	OverSuggested bool    `json:"overSuggestedMax"`
	RegisterMs    float64 `json:"registerMs"`
	Heartbeat     Summary `json:"heartbeat"`
	// The leader's log growth, data directory growth and RSS after the
	// registration; nil when unknown.
	LogEntries    *int64 `json:"logEntries,omitempty"`
	DataDirGrowth *int64 `json:"dataDirGrowthBytes,omitempty"`
	RSSBytes      *int64 `json:"rssBytes,omitempty"`
}

func (s *largeScenario) run(ctx context.Context, e *env, r *Report) error {
	via, err := e.pick(ctx, s.Via)
	if err != nil {
		return err
	}
	c := e.newClient()
	defer c.Close()
	n := newNaming()
	var rows []largeRow
	for i, size := range s.Sizes {
		e.logf("large: broker with %d topics through %s", size, via.ID)
		topics := n.topics("large"+strconv.Itoa(size), size)
		if s.RandomNames {
			topics = randomTopics(size)
		}
		reg := n.broker("large", i, topicConfigs(topics, int32(s.Queues)))
		reg.Compressed = s.Compressed
		row, err := s.measure(ctx, e, c, via, reg)
		if err != nil {
			return fmt.Errorf("%d topics: %w", size, err)
		}
		rows = append(rows, row)
	}
	r.show(rows, s.table(rows))
	s.notes(r, e, rows)
	return nil
}

// measure registers reg once (a write), then re-sends it unchanged.
func (s *largeScenario) measure(ctx context.Context, e *env, c *nsclient.Client, via *member, reg *nsclient.Registration) (largeRow, error) {
	row := largeRow{Topics: len(reg.Body.TopicConfigs)}
	if err := s.sizes(&row, reg); err != nil {
		return row, err
	}
	leader, err := e.leader(ctx)
	if err != nil {
		return row, err
	}
	idxBefore, idxOK := appliedIndex(ctx, leader)
	dirBefore, dirOK := leader.dataDirBytes()
	t0 := time.Now()
	if _, err := c.RegisterBroker(ctx, via.ClientAddr, reg); err != nil {
		return row, err
	}
	row.RegisterMs = ms(time.Since(t0))
	if idxAfter, ok := appliedIndex(ctx, leader); ok && idxOK {
		grown := int64(idxAfter) - int64(idxBefore)
		row.LogEntries = &grown
		if err := e.waitApplied(ctx, idxAfter); err != nil {
			return row, err
		}
	}
	if dirAfter, ok := leader.dataDirBytes(); ok && dirOK {
		grown := dirAfter - dirBefore
		row.DataDirGrowth = &grown
	}
	var hb []time.Duration
	for range s.Heartbeats {
		t0 := time.Now()
		if _, err := c.RegisterBroker(ctx, via.ClientAddr, reg); err != nil {
			return row, fmt.Errorf("unchanged re-registration: %w", err)
		}
		hb = append(hb, time.Since(t0))
	}
	row.Heartbeat = summarize(hb)
	if rss, _, ok := leader.rssBytes(ctx); ok {
		row.RSSBytes = &rss
	}
	return row, nil
}

// sizes fills the body and entry sizes of reg.
func (s *largeScenario) sizes(row *largeRow, reg *nsclient.Registration) error {
	plain, err := body.EncodeRegisterBody(&reg.Body, false, nsclient.Version5)
	if err != nil {
		return err
	}
	packed, err := body.EncodeRegisterBody(&reg.Body, true, nsclient.Version5)
	if err != nil {
		return err
	}
	row.PlainBytes, row.CompressedBytes = len(plain), len(packed)
	if row.EntryBytes, row.RawEntryBytes, err = entrySize(reg, nsclient.Version5); err != nil {
		return err
	}
	row.OverSuggested = row.EntryBytes > suggestedMaxEntry
	return nil
}

func (s *largeScenario) table(rows []largeRow) Table {
	form := map[bool]string{false: "plain", true: "compressed"}[s.Compressed]
	names := map[bool]string{false: "numbered", true: "random"}[s.RandomNames]
	t := Table{
		Title: fmt.Sprintf("one full registration per broker (%s body sent, %s topic names, %d queues per topic)", form, names, s.Queues),
		Columns: []string{"topics", "plain body", "compressed body", "largest raft entry", "uncompressed whole", "> 512 KiB", "register ms",
			"unchanged p50 ms", "unchanged max ms", "log entries", "data dir growth", "leader RSS"},
	}
	for _, r := range rows {
		t.add(r.Topics, sizeCell(int64(r.PlainBytes)), sizeCell(int64(r.CompressedBytes)), sizeCell(int64(r.EntryBytes)), sizeCell(int64(r.RawEntryBytes)),
			map[bool]string{false: "no", true: "YES"}[r.OverSuggested], r.RegisterMs, r.Heartbeat.P50Ms, r.Heartbeat.MaxMs,
			ptrInt(r.LogEntries), ptrSize(r.DataDirGrowth), ptrSize(r.RSSBytes))
	}
	return t
}

func (s *largeScenario) notes(r *Report, e *env, rows []largeRow) {
	for _, row := range rows {
		if row.OverSuggested {
			r.notef("a broker with %d topics produces a %s Raft entry, above hashicorp/raft's suggested 512 KiB",
				row.Topics, sizeCell(int64(row.EntryBytes)))
		}
	}
	r.notef("largest raft entry = the largest entry fsm.SplitRegistration makes of the registration, as the leader does (computed by the tool, not read from the log)")
	if rows[0].DataDirGrowth == nil {
		r.notef("data dir growth unknown: the members were not started by raftns-bench")
	} else {
		r.notef("data dir growth is the apparent size of the leader's files; bbolt grows its file in steps, so small entries may show 0")
	}
	if rows[0].RSSBytes == nil {
		r.notef("RSS unknown: no pid (members not started by the tool, no -pid) and no -http metrics")
	}
}
