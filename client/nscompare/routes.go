package nscompare

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// progressEvery is how often Options.Progress hears of a running stage.
const progressEvery = 250 * time.Millisecond

// forEach runs f for 0 <= i < n on at most workers goroutines, each taking
// the next i when done with the last, and stops at the first error. While
// it runs, progress (when set) hears how many are done, from one
// goroutine, and once more at the end.
func forEach(ctx context.Context, n, workers int, stage string, progress func(string, int, int),
	f func(ctx context.Context, i int) error) error {
	var next, done atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	for range min(workers, n) {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if err := f(gctx, i); err != nil {
					return err
				}
				done.Add(1)
			}
		})
	}
	stop := make(chan struct{})
	var reporter sync.WaitGroup
	if progress != nil {
		reporter.Go(func() { poll.Every(progressEvery, stop, func() { progress(stage, int(done.Load()), n) }) })
	}
	err := g.Wait()
	close(stop)
	reporter.Wait()
	if progress != nil && err == nil {
		progress(stage, n, n)
	}
	return err
}

// unionTopics merges the topic lists of states into one sorted list and
// lets go of the lists.
func unionTopics(states []*serverState) []string {
	seen := map[string]struct{}{}
	for _, s := range states {
		for _, t := range s.topics {
			seen[t] = struct{}{}
		}
		s.topics = nil
	}
	topics := make([]string, 0, len(seen))
	for t := range seen {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	return topics
}

// compareRoutes reads the route of every topic from every server, adds
// each topic's queues to the servers' write-permission tallies and, when
// col is set, judges the topic. Routes are not kept.
func (r reader) compareRoutes(ctx context.Context, states []*serverState, topics []string, col *collector, opts Options) error {
	return forEach(ctx, len(topics), opts.Concurrency, "routes", opts.Progress, func(ctx context.Context, i int) error {
		values := make([]*string, len(states))
		for j, s := range states {
			queues, mappings, found, err := r.route(ctx, s.addr, topics[i])
			if err != nil {
				return err
			}
			if found {
				v := routeValue(queues, mappings)
				values[j] = &v
				s.countQueues(queues)
			}
		}
		if col != nil {
			col.add(KindTopic, topics[i], values)
		}
		return nil
	})
}

// route reads one topic's queue data and mappings; found is false when the
// server answers TOPIC_NOT_EXIST.
func (r reader) route(ctx context.Context, addr, topic string) (queues []queue, mappings []mapping, found bool, err error) {
	err = r.call(ctx, addr, "route of "+topic, func(ctx context.Context) error {
		rt, err := r.c.GetRoute(ctx, addr, topic)
		if err != nil {
			return err
		}
		queues = make([]queue, 0, len(rt.QueueDatas))
		for _, q := range rt.QueueDatas {
			queues = append(queues, queue{broker: q.BrokerName, read: q.ReadQueueNums, write: q.WriteQueueNums,
				perm: q.Perm, sysFlg: q.TopicSysFlag})
		}
		for name, m := range rt.TopicQueueMappingByBroker {
			mappings = append(mappings, mapping{broker: name, epoch: m.Epoch, totalQueues: m.TotalQueues})
		}
		return nil
	})
	if nsclient.IsCode(err, remoting.TopicNotExist) {
		return nil, nil, false, nil
	}
	return queues, mappings, err == nil, err
}
