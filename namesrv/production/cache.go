package production

import (
	"sync"
	"time"
)

// answerCache keeps production's answers for a short time, at most max of
// them: topics come from clients, so the cache must not grow with them.
type answerCache struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu      sync.Mutex
	entries map[string]cached
}

type cached struct {
	a       answer
	expires time.Time
}

func newAnswerCache(ttl time.Duration, max int, now func() time.Time) *answerCache {
	return &answerCache{ttl: ttl, max: max, now: now, entries: map[string]cached{}}
}

func (c *answerCache) get(topic string) (answer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[topic]
	if !ok || !c.now().Before(e.expires) {
		return answer{}, false
	}
	return e.a, true
}

// put keeps a; when the cache is full it first drops expired answers, and
// if none expired it keeps nothing new.
func (c *answerCache) put(topic string, a answer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.entries[topic]; !ok && len(c.entries) >= c.max {
		for k, e := range c.entries {
			if !now.Before(e.expires) {
				delete(c.entries, k)
			}
		}
		if len(c.entries) >= c.max {
			return
		}
	}
	c.entries[topic] = cached{a: a, expires: now.Add(c.ttl)}
}
