package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/clustertest"
	"github.com/raftns/raftns/events/watch"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// benchMember is one member serving blocking watches over real HTTP.
func benchMember(b *testing.B, maxWatchers int) (*cluster.Node, *watch.Hub, string) {
	b.Helper()
	node := clustertest.Single(b, nil)
	hub := watch.NewHub(watch.Config{MaxWatchers: maxWatchers}, node.FSM().AppliedIndex())
	b.Cleanup(hub.Close)
	node.FSM().SetChangeObserver(hub)
	s := New(node, prometheus.NewRegistry(), nil)
	s.EnableWatch(hub)
	// Every watcher comes from loopback: the anonymous budget must not be
	// what is measured.
	s.Configure(Options{WatchAnonymous: maxWatchers, WatchAnonymousPerAddr: maxWatchers})
	srv := httptest.NewServer(s.Handler())
	b.Cleanup(srv.Close)
	return node, hub, srv.URL
}

func putKV(b *testing.B, node *cluster.Node, i int) {
	if _, err := node.Apply(context.Background(), fsm.PutKVType,
		&state.PutKV{Namespace: "bench", Key: "k", Value: fmt.Sprint(i), HasValue: true}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWatch_WakeUp measures, for 1 and 1,000 blocking watchers over
// HTTP, the time from a write's Apply returning on the leader (committed
// and applied) to each watcher's answer arriving, and the process's heap
// growth per waiting watcher (server and client sides together: an upper
// bound of the member's share).
func BenchmarkWatch_WakeUp(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", n), func(b *testing.B) {
			node, hub, url := benchMember(b, n+1)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n + 1, MaxConnsPerHost: n + 1}}
			defer client.CloseIdleConnections()
			var lat []time.Duration
			var heapPerWatcher float64
			var cpu time.Duration
			i := 0
			for b.Loop() {
				index := hub.Index()
				before := heapInUse()
				var wg sync.WaitGroup
				arrived := make([]time.Time, n)
				for w := range n {
					wg.Go(func() {
						resp, err := client.Get(fmt.Sprintf("%s/v1/watch?index=%d&wait=60s&kind=kv", url, index))
						if err != nil {
							return
						}
						var res adminapi.WatchResult
						json.NewDecoder(resp.Body).Decode(&res)
						resp.Body.Close()
						arrived[w] = time.Now()
					})
				}
				poll.For(b, 30*time.Second, "every watcher waiting", func() bool { return hub.Watchers() == n })
				heapPerWatcher = float64(heapInUse()-before) / float64(n)
				i++
				cpuBefore := cpuTime()
				putKV(b, node, i)
				committed := time.Now()
				wg.Wait()
				cpu += cpuTime() - cpuBefore
				for _, at := range arrived {
					lat = append(lat, at.Sub(committed))
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(heapPerWatcher, "heap-bytes/watcher")
			b.ReportMetric(float64(cpu.Microseconds())/float64(i)/1000, "cpu-ms/wake")
		})
	}
}

// cpuTime is the CPU time this process used so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// BenchmarkWatch_SlowWatchersDoNotSlowWrites is one member's write rate
// (PutKV through Node.Apply, one at a time) with no watcher and with 1,000
// stream watchers that never read: their buffers fill, they are marked
// missed, and Apply does not wait for them.
func BenchmarkWatch_SlowWatchersDoNotSlowWrites(b *testing.B) {
	for _, n := range []int{0, 1000} {
		b.Run(fmt.Sprintf("stuck-watchers=%d", n), func(b *testing.B) {
			node, hub, _ := benchMember(b, n+1)
			for range n {
				w, err := hub.Watch(watch.Filter{}, 0)
				if err != nil {
					b.Fatal(err)
				}
				defer w.Close()
			}
			i := 0
			for b.Loop() {
				i++
				putKV(b, node, i)
			}
		})
	}
}
