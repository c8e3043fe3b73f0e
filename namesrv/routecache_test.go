package namesrv

import (
	"fmt"
	"sync"
	"testing"

	"github.com/raftns/raftns/protocol/remoting"
)

func TestRouteCache_AnswersOnlyForTheirGeneration(t *testing.T) {
	c := newRouteCache()
	k := routeKey{topic: "t"}
	a, b := routeResponse([]byte("a")), routeResponse([]byte("b"))
	if _, ok := c.get(0, k); ok {
		t.Fatal("empty cache answered")
	}
	c.put(3, k, a)
	if got, ok := c.get(3, k); !ok || got != a {
		t.Fatalf("get(3) = %v %v, want the stored answer", got, ok)
	}
	if _, ok := c.get(4, k); ok {
		t.Fatal("an answer of generation 3 served generation 4")
	}
	c.put(2, k, b) // older than what the cache holds: ignored
	if got, _ := c.get(3, k); got != a {
		t.Fatal("a put of an older generation replaced a newer answer")
	}
	c.put(4, routeKey{topic: "missing"}, nil)
	if got, ok := c.get(4, routeKey{topic: "missing"}); !ok || got != nil {
		t.Fatalf("cached 'no route' = %v %v", got, ok)
	}
	if _, ok := c.get(4, k); ok {
		t.Fatal("generation 4 kept generation 3's answers")
	}
}

func TestRouteCache_StartsOverAtItsBound(t *testing.T) {
	c := newRouteCache()
	resp := routeResponse([]byte("r"))
	for i := range routeCacheMax {
		c.put(1, routeKey{topic: fmt.Sprint(i)}, resp)
	}
	if got := c.size(); got != routeCacheMax {
		t.Fatalf("size %d, want %d", got, routeCacheMax)
	}
	c.put(1, routeKey{topic: "one more"}, resp)
	if got := c.size(); got != 1 {
		t.Fatalf("size after the bound %d, want 1", got)
	}
	if _, ok := c.get(1, routeKey{topic: "0"}); ok {
		t.Fatal("an answer from before the restart survived")
	}
}

// Concurrent readers and writers of several generations never see an
// answer of another generation (run with -race).
func TestRouteCache_ConcurrentGenerations(t *testing.T) {
	c := newRouteCache()
	answers := map[uint64]*remoting.Command{}
	for g := range uint64(50) {
		answers[g] = routeResponse([]byte(fmt.Sprint(g)))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range uint64(50) {
				k := routeKey{topic: fmt.Sprint(w % 2)}
				c.put(g, k, answers[g])
				if got, ok := c.get(g, k); ok && got != answers[g] {
					t.Errorf("generation %d answered with %q", g, got.Body)
				}
			}
		}()
	}
	wg.Wait()
}

// size returns how many answers the current generation holds.
func (c *routeCache) size() int {
	g := c.cur.Load()
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.entries)
}
