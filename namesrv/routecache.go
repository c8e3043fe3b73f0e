package namesrv

import (
	"sync"
	"sync/atomic"

	"github.com/raftns/raftns/protocol/remoting"
)

// routeCacheMax bounds the cached answers; past it the cache starts over.
const routeCacheMax = 65536

// routeKey names one encoded route body: the two JSON forms differ, the
// order-topic field and the acting-master view depend on per-member
// settings, and zone-mode clients get their zone's groups only.
type routeKey struct {
	topic    string
	standard bool
	order    bool
	acting   bool
	zoned    bool
	zone     string
}

// routeCache keeps GET_ROUTEINFO_BY_TOPIC answers, built once, for the FSM
// generation they were built from; any applied change invalidates all of
// them. A cached answer is a shared, read-only response (the connection
// writes each request's opaque into its own copy of the frame); a nil one
// caches "no route". A generation's answers live in their own map,
// replaced as a whole when the generation moves on.
type routeCache struct {
	cur atomic.Pointer[routeGeneration]
}

// routeGeneration is the cached answers of one FSM generation. It is a
// plain map under a read-write lock rather than a sync.Map: reads are a
// typed lookup (a sync.Map hashes its key through an interface), which
// shows in the latency of one client's route queries.
type routeGeneration struct {
	gen     uint64
	mu      sync.RWMutex
	entries map[routeKey]*remoting.Command
}

func newRouteCache() *routeCache {
	c := &routeCache{}
	c.cur.Store(&routeGeneration{entries: map[routeKey]*remoting.Command{}})
	return c
}

func (c *routeCache) get(gen uint64, k routeKey) (resp *remoting.Command, ok bool) {
	g := c.cur.Load()
	if g.gen != gen {
		return nil, false
	}
	g.mu.RLock()
	resp, ok = g.entries[k]
	g.mu.RUnlock()
	return resp, ok
}

func (c *routeCache) put(gen uint64, k routeKey, resp *remoting.Command) {
	for {
		g := c.cur.Load()
		if gen < g.gen {
			return
		}
		if gen > g.gen {
			fresh := &routeGeneration{gen: gen, entries: map[routeKey]*remoting.Command{}}
			if !c.cur.CompareAndSwap(g, fresh) {
				continue // another put moved it first; look again
			}
			g = fresh
		}
		g.mu.Lock()
		if _, ok := g.entries[k]; !ok && len(g.entries) >= routeCacheMax {
			g.entries = map[routeKey]*remoting.Command{} // start over
		}
		g.entries[k] = resp
		g.mu.Unlock()
		return
	}
}
