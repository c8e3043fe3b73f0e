package transport

import (
	"sync"
	"sync/atomic"

	"github.com/raftns/raftns/transport/remoting"
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
// caches "no route". Reads take no lock: a generation's answers live in
// their own map, replaced as a whole when the generation moves on.
type routeCache struct {
	cur atomic.Pointer[routeGeneration]
}

// routeGeneration is the cached answers of one FSM generation.
type routeGeneration struct {
	gen     uint64
	size    atomic.Int32
	entries sync.Map // routeKey → *remoting.Command
}

func newRouteCache() *routeCache {
	c := &routeCache{}
	c.cur.Store(&routeGeneration{})
	return c
}

func (c *routeCache) get(gen uint64, k routeKey) (resp *remoting.Command, ok bool) {
	g := c.cur.Load()
	if g.gen != gen {
		return nil, false
	}
	v, ok := g.entries.Load(k)
	if !ok {
		return nil, false
	}
	return v.(*remoting.Command), true
}

func (c *routeCache) put(gen uint64, k routeKey, resp *remoting.Command) {
	for {
		g := c.cur.Load()
		switch {
		case gen < g.gen:
			return
		case gen > g.gen || g.size.Load() >= routeCacheMax:
			fresh := &routeGeneration{gen: gen}
			if !c.cur.CompareAndSwap(g, fresh) {
				continue // another put moved it first; look again
			}
			g = fresh
		}
		if _, loaded := g.entries.LoadOrStore(k, resp); !loaded {
			g.size.Add(1)
		}
		return
	}
}
