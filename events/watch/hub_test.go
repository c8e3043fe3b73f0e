package watch

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

func newTestHub(t *testing.T, cfg Config) *Hub {
	h := NewHub(cfg, 10)
	t.Cleanup(h.Close)
	return h
}

// publishAndWait publishes c and waits until the hub has fanned it out.
func publishAndWait(t *testing.T, h *Hub, c Change) {
	t.Helper()
	h.Publish(c)
	poll.For(t, 5*time.Second, "the change fanned out", func() bool { return h.Index() >= c.Index })
}

func TestWait_AnswersAtOnceForAChangeAfterTheIndexAndBlocksOtherwise(t *testing.T) {
	h := newTestHub(t, Config{})
	ctx := context.Background()
	if res, _ := h.Wait(ctx, Filter{}, 0, time.Minute); res.Index != 10 || len(res.Changes) != 0 {
		t.Fatalf("index 0: %+v", res)
	}
	publishAndWait(t, h, Change{Index: 11, Kinds: Route, Topics: []string{"A"}})
	if res, _ := h.Wait(ctx, Filter{Topic: "A"}, 10, time.Minute); res.Index != 11 || len(res.Changes) != 1 {
		t.Fatalf("a change after the index: %+v", res)
	}
	// Nothing matches after 11: the query waits for the next match.
	done := make(chan Result, 1)
	go func() {
		res, _ := h.Wait(ctx, Filter{Topic: "A"}, 11, time.Minute)
		done <- res
	}()
	poll.For(t, 5*time.Second, "the query to register", func() bool { return h.Watchers() == 1 })
	publishAndWait(t, h, Change{Index: 12, Kinds: Route, Topics: []string{"B"}})
	h.Publish(Change{Index: 13, Kinds: Route, Topics: []string{"A"}})
	select {
	case res := <-done:
		if res.Index != 13 || len(res.Changes) != 1 || res.Changes[0].Index != 13 {
			t.Fatalf("woken by %+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the blocking query did not wake on a matching change")
	}
	// A query that times out answers the current index.
	if res, _ := h.Wait(ctx, Filter{Topic: "A"}, 13, 20*time.Millisecond); res.Index != 13 || len(res.Changes) != 0 || res.Missed {
		t.Fatalf("timed out: %+v", res)
	}
}

func TestWatch_ASlowWatcherIsToldItMissedChangesThenGetsTheNextOnes(t *testing.T) {
	h := newTestHub(t, Config{Buffer: 4})
	slow, err := h.Watch(Filter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	for i := uint64(11); i < 111; i++ {
		h.Publish(Change{Index: i, Kinds: Broker})
	}
	publishAndWait(t, h, Change{Index: 111, Kinds: Broker})
	ev, err := slow.Next(context.Background())
	if err != nil || !ev.Missed || ev.Index != 111 {
		t.Fatalf("slow watcher got %+v, %v; want missed at 111", ev, err)
	}
	publishAndWait(t, h, Change{Index: 112, Kinds: Broker})
	if ev, err := slow.Next(context.Background()); err != nil || ev.Missed || ev.Index != 112 {
		t.Fatalf("after being told: %+v, %v", ev, err)
	}
}

// Publish runs under the FSM's lock: with its queue full it drops the
// change (never waits), and every watcher is told it missed changes.
func TestPublish_DropsWhenTheQueueIsFullAndWatchersLearnIt(t *testing.T) {
	h := newTestHub(t, Config{Buffer: defaultQueue * 4})
	w, err := h.Watch(Filter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// The fan-out waits for the hub's lock meanwhile, as a stuck one
	// would: the queue fills.
	h.mu.Lock()
	for i := uint64(11); i < 11+defaultQueue*2; i++ {
		h.Publish(Change{Index: i, Kinds: Broker})
	}
	// Read the flag before the fan-out may run: it clears the flag when
	// it tells the watchers.
	dropped := h.overflow.Load()
	h.mu.Unlock()
	if !dropped {
		t.Fatal("a full queue did not drop changes")
	}
	poll.For(t, 10*time.Second, "a missed event", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		ev, err := w.Next(ctx)
		return err == nil && ev.Missed
	})
}

func TestWatch_BoundedWatchersAndHistory(t *testing.T) {
	h := newTestHub(t, Config{MaxWatchers: 2})
	for range 2 {
		w, err := h.Watch(Filter{}, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
	}
	if _, err := h.Watch(Filter{}, 0); err != ErrTooManyWatchers {
		t.Fatalf("third watcher: %v", err)
	}
	if _, err := h.Wait(context.Background(), Filter{}, 5, time.Second); err != ErrTooManyWatchers {
		t.Fatalf("blocking query over the limit: %v", err)
	}
}

func TestWatch_AWatcherFromBeforeTheHistoryStartsMissed(t *testing.T) {
	h := newTestHub(t, Config{})
	for i := uint64(11); i <= 11+defaultHistory; i++ {
		h.Publish(Change{Index: i, Kinds: KV})
	}
	poll.For(t, 5*time.Second, "the changes fanned out", func() bool { return h.Index() == 11+defaultHistory })
	res, err := h.Wait(context.Background(), Filter{}, 11, time.Second)
	if err != nil || !res.Missed || res.Index != 11+defaultHistory {
		t.Fatalf("query from before the history: %+v, %v", res, err)
	}
	res, _ = h.Wait(context.Background(), Filter{}, 11+defaultHistory-3, time.Second)
	if res.Missed || len(res.Changes) != 3 {
		t.Fatalf("query within the history: %+v", res)
	}
}

func TestFilter_SelectsByKindTopicAndCluster(t *testing.T) {
	reg := Change{Kinds: Route | Broker, Topics: []string{"T"}, Clusters: []string{"C"}}
	expiry := Change{Kinds: Route | Broker, AllTopics: true}
	member := Change{Kinds: Member}
	for _, tc := range []struct {
		f    Filter
		c    Change
		want bool
	}{
		{Filter{}, member, true},
		{Filter{Kinds: Audit}, reg, false},
		{Filter{Kinds: Broker | Audit}, reg, true},
		{Filter{Topic: "T"}, reg, true},
		{Filter{Topic: "U"}, reg, false},
		{Filter{Topic: "U"}, expiry, true},
		{Filter{Topic: "T"}, member, false},
		{Filter{Cluster: "C"}, reg, true},
		{Filter{Cluster: "D"}, reg, false},
		{Filter{Cluster: "D"}, expiry, true},
	} {
		if got := tc.f.Matches(tc.c); got != tc.want {
			t.Errorf("%+v matches %+v = %v, want %v", tc.f, tc.c, got, tc.want)
		}
	}
	if k, err := ParseKinds("route, audit"); err != nil || k != Route|Audit || fmt.Sprint(k.Names()) != "[route audit]" {
		t.Fatalf("ParseKinds = %v, %v", k, err)
	}
	if _, err := ParseKinds("routes"); err == nil {
		t.Fatal("an unknown kind was accepted")
	}
}

// BenchmarkHub_WakeUp is the hub's own share of a watcher's wake-up: from
// Publish (what the FSM calls as it applies an entry) to each of n
// watchers waiting in Next returning the change, without HTTP.
func BenchmarkHub_WakeUp(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", n), func(b *testing.B) {
			h := NewHub(Config{MaxWatchers: n}, 0)
			defer h.Close()
			ws := make([]*Watcher, n)
			for i := range ws {
				ws[i], _ = h.Watch(Filter{}, 0)
			}
			var lat []time.Duration
			index := uint64(0)
			for b.Loop() {
				index++
				var wg sync.WaitGroup
				woke := make([]time.Time, n)
				ready := make(chan struct{}, n)
				for i, w := range ws {
					wg.Go(func() {
						ready <- struct{}{}
						if _, err := w.Next(context.Background()); err == nil {
							woke[i] = time.Now()
						}
					})
				}
				for range n {
					<-ready
				}
				start := time.Now()
				h.Publish(Change{Index: index, Kinds: KV})
				wg.Wait()
				for _, t := range woke {
					lat = append(lat, t.Sub(start))
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
