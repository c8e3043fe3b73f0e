package namesrv

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// largeTopics is a broker table too large for one Raft entry: topic names
// that compress poorly, like real ones. Split in parts of 800 it has a
// last part of 700 topics, so a table 500 topics smaller is sent in as
// many parts (a round with fewer parts than the one before is handled a
// round later, docs/contributors/design.md "Split registration").
const largeTopics = 20700

// splitDropsWarning passes the members' logs on to the test's and counts
// the warnings that a registration too large for one log entry deletes
// nothing below the cluster version.
type splitDropsWarning struct {
	log hclog.Logger
	n   atomic.Int64
}

func (w *splitDropsWarning) Accept(_ string, level hclog.Level, msg string, args ...any) {
	w.log.Log(level, msg, args...)
	if level == hclog.Warn && strings.Contains(msg, "deletes no unlisted topics below this cluster version") {
		w.n.Add(1)
	}
}

// largeCluster is three in-process members, each serving the NameServer
// protocol twice: with deleteTopicWithBrokerRegistration on and off.
type largeCluster struct {
	t     *testing.T
	ms    *clustertest.Members
	addrs map[bool][]string
	warns *splitDropsWarning
}

// startLargeCluster starts the members at cluster version clusterVersion
// ("" for this release) and waits until it is reached.
func startLargeCluster(t *testing.T, clusterVersion string) *largeCluster {
	warns := &splitDropsWarning{log: clustertest.Logger(t)}
	// Generous Raft timers and write timeouts: the race detector makes
	// 20,000-topic registrations slow, and elections are not the point.
	ms := clustertest.Start(t, 3, func(c *cluster.Config) {
		c.MaxStale, c.RaftConfig, c.RaftMultiplier, c.InitialClusterVersion = 2*time.Minute, nil, 4, clusterVersion
		c.ApplyTimeout, c.ForwardHold = time.Minute, time.Minute
		logger := hclog.NewInterceptLogger(&hclog.LoggerOptions{Level: hclog.Warn, Output: io.Discard})
		logger.RegisterSink(warns)
		c.Logger = logger
	})
	want := buildinfo.Current()
	if clusterVersion != "" {
		want = buildinfo.MustParse(clusterVersion)
	}
	poll.For(t, 10*time.Second, "the cluster version "+want.String(), func() bool {
		return ms.Leader().FSM().ClusterVersion() == want
	})
	c := &largeCluster{t: t, ms: ms, addrs: map[bool][]string{}, warns: warns}
	for _, node := range ms.Running() {
		for _, deleting := range []bool{false, true} {
			cfg := DefaultConfig()
			cfg.Logger, cfg.WriteTimeout = clustertest.Logger(t), time.Minute
			// Two servers of one member differ in the setting only if it
			// is theirs: the cluster's run-time settings would make it one.
			cfg.Settings = NewSettings(map[string]string{PropDeleteTopicWithBrokerRegistration: strconv.FormatBool(deleting)}, nil,
				"dataDir", PropDeleteTopicWithBrokerRegistration)
			srv := New(cfg, node)
			ln := listen(t)
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })
			c.addrs[deleting] = append(c.addrs[deleting], ln.Addr().String())
		}
	}
	return c
}

// largeBroker is a broker with a table of largeTopics topics that
// registers with every member, as brokers do.
type largeBroker struct {
	c        *largeCluster
	client   *nsclient.Client
	name     string
	deleting bool
	topics   []state.TopicConfig
	version  state.DataVersion
}

// broker returns broker number n of the cluster, which registers with the
// members deleting unlisted topics or not.
func (c *largeCluster) broker(n uint64, deleting bool) *largeBroker {
	b := &largeBroker{c: c, client: nsclient.New(remoting.ClientConfig{}), name: fmt.Sprint("broker-", n), deleting: deleting,
		version: state.DataVersion{Timestamp: 1700000000000, Counter: 1}}
	c.t.Cleanup(func() { b.client.Close() })
	rng := rand.New(rand.NewPCG(n, 24))
	for range largeTopics {
		b.topics = append(b.topics, state.TopicConfig{TopicName: fmt.Sprintf("topic-%016x-%016x-%08x", rng.Uint64(), rng.Uint64(), rng.Uint32()),
			ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
	}
	whole, err := fsm.Encode(fsm.RegisterBrokerType, &state.RegisterBroker{TopicConfigs: b.topics, DataVersion: b.version})
	if err != nil || len(whole) <= fsm.MaxEntrySize {
		c.t.Fatalf("the table's entry has %d bytes (%v); the test needs one above %d", len(whole), err, fsm.MaxEntrySize)
	}
	return b
}

// register sends one registration listing topics to every member.
func (b *largeBroker) register(topics []state.TopicConfig) {
	b.c.t.Helper()
	r := &nsclient.Registration{ClusterName: "c1", BrokerName: b.name, BrokerAddr: b.name + ":10911", HaServerAddr: b.name + ":10912"}
	r.Body.DataVersion, r.Body.TopicConfigs, r.Body.HasFilterServerList = b.version, topics, true
	for _, addr := range b.c.addrs[b.deleting] {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		_, err := b.client.RegisterBroker(ctx, addr, r)
		cancel()
		if err != nil {
			b.c.t.Fatalf("registering %d topics with %s: %v", len(topics), addr, err)
		}
	}
}

// round sends the table: whole, or in parts of size as a broker with
// enableSplitRegistration does (the last part has the rest, possibly none).
func (b *largeBroker) round(size int) {
	b.c.t.Helper()
	if size == 0 {
		b.register(b.topics)
		return
	}
	sent := 0
	for ; sent+size <= len(b.topics); sent += size {
		b.register(b.topics[sent : sent+size])
	}
	b.register(b.topics[sent:])
}

// routedOnEveryMember waits until every member applied what the leader
// has, then counts, per member, the given topics it routes.
func (c *largeCluster) routedOnEveryMember(topics []state.TopicConfig) []int {
	c.t.Helper()
	c.ms.WaitApplied(c.ms.Leader().FSM().AppliedIndex())
	var counts []int
	for _, node := range c.ms.Running() {
		n := 0
		for _, tc := range topics {
			if _, ok := node.FSM().Route(tc.TopicName, false); ok {
				n++
			}
		}
		counts = append(counts, n)
	}
	return counts
}

// expectRouted fails the test unless every member routes want of topics.
func (c *largeCluster) expectRouted(what string, topics []state.TopicConfig, want int) {
	c.t.Helper()
	if got := c.routedOnEveryMember(topics); fmt.Sprint(got) != fmt.Sprint([]int{want, want, want}) {
		c.t.Fatalf("of the %d topics %s, the members route %v; want %d each", len(topics), what, got, want)
	}
}

// deleteRound registers the table for two rounds, then a round under a
// new DataVersion without 500 of its topics, and returns those.
func (b *largeBroker) deleteRound(size int) (gone []state.TopicConfig) {
	b.round(size)
	b.round(size)
	b.c.expectRouted("registered for two rounds", b.topics, len(b.topics))
	gone = append(gone, b.topics[7000:7500]...)
	b.topics = append(b.topics[:7000:7000], b.topics[7500:]...)
	b.version.Counter++
	b.round(size)
	return gone
}

// A broker whose table is too large for one Raft entry, registering with
// deleteTopicWithBrokerRegistration, has exactly the topics its table no
// longer lists removed on every member, whether it sends its table whole
// or in the parts of split registration; with deletion off nothing goes.
func TestSplitDeletion_LargeTableDropsWhatItNoLongerListsOnEveryMember(t *testing.T) {
	c := startLargeCluster(t, "")
	for i, tc := range []struct {
		name     string
		deleting bool
		size     int
	}{
		{"whole tables, deleting", true, 0},
		{"split registration, deleting", true, 800},
		{"whole tables, not deleting", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := c.broker(uint64(i), tc.deleting)
			gone := b.deleteRound(tc.size)
			c.expectRouted("the table no longer lists", gone, map[bool]int{true: 0, false: len(gone)}[tc.deleting])
			c.expectRouted("the table lists", b.topics, len(b.topics))
		})
	}
}

// Below the cluster version of the feature, a table too large for one
// Raft entry deletes nothing, as before, and the leader says so once.
func TestSplitDeletion_BelowTheClusterVersionNothingIsDeletedAndTheLeaderWarnsOnce(t *testing.T) {
	c := startLargeCluster(t, buildinfo.Baseline)
	b := c.broker(0, true)
	gone := b.deleteRound(0)
	b.topics = append(b.topics[:0:0], b.topics[1:]...)
	b.version.Counter++
	b.round(0)
	c.expectRouted("the table no longer lists, below the cluster version", gone, len(gone))
	if n := c.warns.n.Load(); n != 1 {
		t.Fatalf("the warning was logged %d times, want once", n)
	}
}
