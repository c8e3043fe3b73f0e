package transport

import "sync"

// routeCacheMax bounds the cached bodies; past it the cache starts over.
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

// routeCache keeps encoded GET_ROUTEINFO_BY_TOPIC bodies for the FSM
// generation they were built from; any applied change invalidates all of
// them. A nil body caches "no route".
type routeCache struct {
	mu      sync.RWMutex
	gen     uint64
	entries map[routeKey][]byte
}

func newRouteCache() *routeCache { return &routeCache{entries: map[routeKey][]byte{}} }

func (c *routeCache) get(gen uint64, k routeKey) (body []byte, ok bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.gen != gen {
		return nil, false
	}
	body, ok = c.entries[k]
	return body, ok
}

func (c *routeCache) put(gen uint64, k routeKey, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen < c.gen {
		return
	}
	if gen > c.gen || len(c.entries) >= routeCacheMax {
		c.gen = gen
		c.entries = make(map[routeKey][]byte, len(c.entries))
	}
	c.entries[k] = body
}
