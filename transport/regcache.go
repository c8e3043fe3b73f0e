package transport

import (
	"hash/maphash"
	"strconv"
	"sync"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport/remoting"
)

// regCacheMax bounds the registration cache. Entries are only added for
// registrations the member accepted and dropped when the broker
// unregisters here, so it holds about one entry per live broker (and one
// per broker that expired instead); past the bound it starts over.
const regCacheMax = 1 << 16

// regHeaderFields are the request header fields whose values decide what a
// registration means; with the body and the request version they make up
// the registration's fingerprint.
var regHeaderFields = [...]string{"brokerName", "brokerAddr", "clusterName", "haServerAddr", "brokerId",
	"__ZONE_NAME", "heartbeatTimeoutMillis", "enableActingMaster", "compressed", "bodyCrc32"}

// registrationCache recognises a broker's unchanged re-registration (its
// periodic heartbeat) without decoding it: per broker it keeps the
// fingerprint of the last registration the member accepted, the FSM
// generation read before it was handled, and the answer given. A request
// with the same fingerprint while the FSM is still at that generation would
// decode to the same command, find the same state and get the same answer.
// Any change to the FSM (of this broker or any other) misses, and the
// request takes the full path. The fingerprint is a keyed 64-bit hash with
// a per-process random key, so a sender cannot aim for a collision.
type registrationCache struct {
	seed maphash.Seed
	mu   sync.RWMutex
	m    map[fsm.BrokerKey]regCacheEntry
}

type regCacheEntry struct {
	sum uint64
	gen uint64
	res fsm.RegisterResult
}

func newRegistrationCache() *registrationCache {
	return &registrationCache{seed: maphash.MakeSeed(), m: map[fsm.BrokerKey]regCacheEntry{}}
}

// fingerprint returns the broker a registration names and the hash of
// everything in it that its meaning depends on.
func (rc *registrationCache) fingerprint(req *remoting.Command) (fsm.BrokerKey, uint64) {
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
	return fsm.BrokerKey{Cluster: req.ExtFields["clusterName"], Addr: req.ExtFields["brokerAddr"]}, h.Sum64()
}

// lookup returns the answer given to the same registration at generation
// gen, if that is the last one the cache saw from the broker.
func (rc *registrationCache) lookup(key fsm.BrokerKey, sum, gen uint64) (fsm.RegisterResult, bool) {
	rc.mu.RLock()
	e, ok := rc.m[key]
	rc.mu.RUnlock()
	if !ok || e.sum != sum || e.gen != gen {
		return fsm.RegisterResult{}, false
	}
	return e.res, true
}

// store remembers an accepted registration; gen must have been read before
// the registration was handled, so that a change racing with it is a miss.
func (rc *registrationCache) store(key fsm.BrokerKey, sum, gen uint64, res fsm.RegisterResult) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, ok := rc.m[key]; !ok && len(rc.m) >= regCacheMax {
		clear(rc.m)
	}
	rc.m[key] = regCacheEntry{sum: sum, gen: gen, res: res}
}

// forget drops a broker's entry once it unregistered: a broker that comes
// back registers anew, and brokers that change names and addresses (every
// restart on a new host) would otherwise fill the cache with the gone.
func (rc *registrationCache) forget(key fsm.BrokerKey) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	delete(rc.m, key)
}
