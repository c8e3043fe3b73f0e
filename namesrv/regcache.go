package namesrv

import (
	"context"
	"hash/maphash"
	"maps"
	"strconv"
	"sync"
	"unsafe"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/protocol/remoting"
)

// regCacheMax bounds the registration cache's entries, regCacheParts a
// broker's. Entries are only added for registrations the member accepted,
// and dropped when the broker unregisters here, so it holds about one entry
// per live broker, or one per part for a broker that splits its
// registration; past either bound it starts over (that
// broker's entries, or all).
const (
	regCacheMax   = 1 << 16
	regCacheParts = 1024
)

// regHeaderFields are the request header fields whose values decide what a
// registration means; with the body and the request version they make up
// the registration's fingerprint.
var regHeaderFields = [...]string{"brokerName", "brokerAddr", "clusterName", "haServerAddr", "brokerId",
	"__ZONE_NAME", "heartbeatTimeoutMillis", "enableActingMaster", "compressed", "bodyCrc32"}

// registrationCache recognises a broker's unchanged re-registration (its
// periodic heartbeat) without decoding it: per broker it keeps, for each
// registration the member accepted since the FSM last changed (one, or one
// per part of a split registration), its fingerprint, the FSM generation
// read before it was handled, and the answer given. A request with the same
// fingerprint while the FSM is still at that generation would decode to the
// same command, find the same state and get the same answer. Any change to
// the FSM (of this broker or any other) misses, and the request takes the
// full path. The fingerprint is a keyed 64-bit hash with a per-process
// random key, so a sender cannot aim for a collision.
//
// Every entry is charged to the request budget, with the command it keeps;
// an entry the budget cannot hold is kept without its command, or not at
// all. Entries go when the broker unregisters here (forget) and when it is
// no longer registered at all, expired or unregistered through another
// member (sweep).
type registrationCache struct {
	seed   maphash.Seed
	budget *membudget.Budget
	mu     sync.RWMutex
	m      map[state.BrokerKey]map[uint64]regCacheEntry
	n      int
}

type regCacheEntry struct {
	gen   uint64
	res   state.RegisterResult
	shape regShape
	// cmd is the command as it was applied, kept only while split rounds
	// are gathered for deletion (nil otherwise).
	cmd *state.RegisterBroker
	// held is what the entry is charged to the request budget.
	held int64
}

// regEntryBase is what an entry without a command is charged: the entry,
// its map slot and a KV table of a few order-topic configs.
const regEntryBase = 512

// cost is what e is charged, its command included.
func (e *regCacheEntry) cost() int64 {
	n := int64(regEntryBase)
	if c := e.cmd; c != nil {
		n += int64(unsafe.Sizeof(*c)) + topicBytes(c.TopicConfigs) + int64(len(c.MappingInfos))*256
		for _, f := range c.FilterServerList {
			n += int64(len(f)) + 16
		}
	}
	return n
}

func newRegistrationCache(budget *membudget.Budget) *registrationCache {
	return &registrationCache{seed: maphash.MakeSeed(), budget: budget, m: map[state.BrokerKey]map[uint64]regCacheEntry{}}
}

// fingerprint returns the broker a registration names and the hash of
// everything in it that its meaning depends on.
func (rc *registrationCache) fingerprint(req *remoting.Command) (state.BrokerKey, uint64) {
	var h maphash.Hash
	h.SetSeed(rc.seed)
	var num [20]byte
	h.Write(strconv.AppendInt(num[:0], int64(req.Version), 10))
	for _, name := range regHeaderFields {
		v, ok := req.ExtFields[name]
		// length-prefixed, with presence, so that no two headers hash alike
		// by moving bytes between fields
		if !ok {
			h.WriteByte(0)
			continue
		}
		h.WriteByte(1)
		h.Write(strconv.AppendInt(num[:0], int64(len(v)), 10))
		h.WriteByte(':')
		h.WriteString(v)
	}
	h.Write(req.Body)
	return state.BrokerKey{Cluster: req.ExtFields["clusterName"], Addr: req.ExtFields["brokerAddr"]}, h.Sum64()
}

// lookup returns what the cache holds of the same registration at
// generation gen.
func (rc *registrationCache) lookup(key state.BrokerKey, sum, gen uint64) (regCacheEntry, bool) {
	rc.mu.RLock()
	e, ok := rc.m[key][sum]
	rc.mu.RUnlock()
	if !ok || e.gen != gen {
		return regCacheEntry{}, false
	}
	return e, true
}

// store remembers an accepted registration; e.gen must have been read
// before the registration was handled, so that a change racing with it is a
// miss. The broker's entries of older generations can never hit again and
// go.
func (rc *registrationCache) store(key state.BrokerKey, sum uint64, e regCacheEntry) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	parts := rc.m[key]
	if parts == nil {
		parts = map[uint64]regCacheEntry{}
		rc.m[key] = parts
	}
	rc.dropFunc(parts, func(_ uint64, old regCacheEntry) bool { return old.gen < e.gen })
	if len(parts) >= regCacheParts {
		rc.dropFunc(parts, func(uint64, regCacheEntry) bool { return true })
	}
	if old, ok := parts[sum]; ok {
		rc.budget.Release(old.held)
		delete(parts, sum)
		rc.n--
	}
	if rc.n >= regCacheMax {
		for k := range rc.m {
			rc.dropLocked(k)
		}
		parts = map[uint64]regCacheEntry{}
		rc.m[key] = parts
	}
	e.held = e.cost()
	if !rc.budget.Acquire(context.Background(), e.held, 0) {
		e.cmd = nil
		if e.held = e.cost(); !rc.budget.Acquire(context.Background(), e.held, 0) {
			return // the budget is spent on requests: this one is not remembered
		}
	}
	rc.n++
	parts[sum] = e
}

// dropFunc removes the entries of parts that del selects.
func (rc *registrationCache) dropFunc(parts map[uint64]regCacheEntry, del func(uint64, regCacheEntry) bool) {
	maps.DeleteFunc(parts, func(sum uint64, e regCacheEntry) bool {
		if del(sum, e) {
			rc.budget.Release(e.held)
			rc.n--
			return true
		}
		return false
	})
}

// dropLocked removes a broker's entries; the caller holds mu.
func (rc *registrationCache) dropLocked(key state.BrokerKey) {
	for _, e := range rc.m[key] {
		rc.budget.Release(e.held)
	}
	rc.n -= len(rc.m[key])
	delete(rc.m, key)
}

// forget drops a broker's entry once it unregistered: a broker that comes
// back registers anew, and brokers that change names and addresses (every
// restart on a new host) would otherwise fill the cache with the gone.
func (rc *registrationCache) forget(key state.BrokerKey) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.dropLocked(key)
}

// sweep drops the entries of every broker live no longer names: expired,
// or unregistered through another member.
func (rc *registrationCache) sweep(live func(state.BrokerKey) bool) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for key := range rc.m {
		if !live(key) {
			rc.dropLocked(key)
		}
	}
}
