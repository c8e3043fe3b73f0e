package namesrv

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// serveNode serves the NameServer protocol for one member of an in-process
// cluster and returns its address.
func serveNode(t *testing.T, node *cluster.Node) string {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Logger = clustertest.Logger(t)
	cfg.Settings = NewSettings(map[string]string{PropEnableAllTopicList: "true"}, nil, "dataDir")
	srv := New(cfg, node)
	ln := listen(t)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// A follower applying a registration of 50,000 topics keeps answering
// reads: it was caught up a moment ago, so it stays ready while it applies,
// and neither drops a read nor closes a client's connection.
func TestReadiness_FollowerApplyingLargeRegistrationKeepsServingReads(t *testing.T) {
	const topics = 50000
	// Raft runs with generous timers (four times the production ones) and
	// max stale is long: the point is that applying is not being behind,
	// not elections or the max-stale bound on a machine the race detector
	// keeps busy.
	ms := clustertest.Start(t, 3, func(c *cluster.Config) { c.MaxStale, c.RaftConfig, c.RaftMultiplier = 2*time.Minute, nil, 4 })
	leader := serveNode(t, ms.Leader())
	follower := ms.Followers()[0]
	addr := serveNode(t, follower)
	client := nsclient.New(remoting.ClientConfig{})
	defer client.Close()

	reg := func(counter int64, names []string) {
		r := &nsclient.Registration{ClusterName: "c1", BrokerName: "broker-a", BrokerAddr: "10.0.0.1:10911", HaServerAddr: "10.0.0.1:10912"}
		r.Body.DataVersion.Timestamp, r.Body.DataVersion.Counter = 1700000000000, counter
		for _, n := range names {
			r.Body.TopicConfigs = append(r.Body.TopicConfigs, state.TopicConfig{TopicName: n, ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := client.RegisterBroker(ctx, leader, r); err != nil {
			t.Fatalf("registering %d topics: %v", len(names), err)
		}
	}
	reg(1, []string{"Topic0"})
	poll.For(t, 10*time.Second, "the follower ready with the first topic", func() bool {
		ready, _ := follower.Ready()
		_, err := client.GetRoute(context.Background(), addr, "Topic0")
		return ready && err == nil
	})

	var reads, failed atomic.Int64
	var firstErr atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		reader := nsclient.New(remoting.ClientConfig{})
		defer reader.Close()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			var err error
			if i%2 == 0 {
				_, err = reader.GetRoute(ctx, addr, "Topic0")
			} else {
				_, err = reader.GetClusterInfo(ctx, addr)
			}
			cancel()
			reads.Add(1)
			if err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			}
		}
	}()
	names := make([]string, topics)
	for i := range names {
		names[i] = fmt.Sprintf("Topic%d", i)
	}
	reg(2, names)
	// The registration was answered, so every part of it is committed.
	poll.For(t, 2*time.Minute, "the follower to apply the registration", func() bool {
		_, ok := follower.FSM().Route(names[topics-1], false)
		return ok && len(follower.FSM().AllTopics().Topics) == topics
	})
	close(stop)
	wg.Wait()
	if failed.Load() != 0 || reads.Load() == 0 {
		t.Fatalf("%d of %d reads of the follower failed while it applied %d topics (first: %v)", failed.Load(), reads.Load(), topics, firstErr.Load())
	}
}
