package namesrv

import (
	"context"
	"hash/maphash"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/membudget"
)

// Bounds of the split-registration tracker: brokers tracked (past it, it
// starts over, as the registration cache does), parts remembered per round,
// and topics gathered for one round's deletion check (past it, the round
// deletes nothing).
const (
	roundBrokersMax = 1 << 16
	roundPartsMax   = 1024
	roundTopicsMax  = 1 << 20
)

// roundMode is what the member learned of how a broker registers.
type roundMode uint8

const (
	// modeUnknown: not seen two registrations in a row yet.
	modeUnknown roundMode = iota
	// modeWhole: each registration carries the broker's whole topic table.
	modeWhole
	// modeSplit: the broker sends its table in parts (enableSplitRegistration).
	modeSplit
)

// regShape is what the tracker needs of a registration: its DataVersion,
// how many topics it lists and a hash of their names (independent of their
// order).
type regShape struct {
	dv    state.DataVersion
	n     int
	names uint64
}

// brokerRound is one broker's current registration round.
type brokerRound struct {
	mode  roundMode
	open  bool
	dv    state.DataVersion
	first int  // topics in the round's first part: every part but the last lists as many
	fresh bool // the first part brought a DataVersion the state did not have
	parts []uint64
	// lastParts and lastFirst are how many parts the broker's last
	// complete round had and how many topics its first part listed.
	lastParts, lastFirst int
	// gathering: deletion is on and the broker is known to split, so the
	// round's topic configs are gathered in topics to check the broker's
	// whole table at the end of the round; over: they passed
	// roundTopicsMax, and this round deletes nothing.
	gathering, over bool
	topics          []state.TopicConfig
	// held is what the gathered topics are charged to the request
	// budget; seen is when the broker's last registration came.
	held int64
	seen time.Time
}

// splitRounds recognises the rounds of brokers that split their
// registration (RocketMQ 5.1.4+ enableSplitRegistration): such a broker
// sends its topic table as consecutive registrations of splitRegistrationSize
// topics sharing one DataVersion, then one with the rest (possibly none).
// A registration continues the broker's open round when it lists no more
// topics than the round's first part, a set of names no part of the round
// listed, and (for a broker known to send whole tables) the same
// DataVersion; a smaller one ends the round. Anything else starts a round.
// docs/contributors/design.md, "Split registration", gives the reasons.
//
// The topics a round gathers are charged to the request budget (a round
// the budget cannot hold deletes nothing), and are freed at the end of the
// round, when the broker leaves (forget, sweep) and once the round has had
// no part for roundMaxAge (sweep).
type splitRounds struct {
	seed   maphash.Seed
	budget *membudget.Budget
	now    func() time.Time
	mu     sync.Mutex
	m      map[state.BrokerKey]*brokerRound
}

func newSplitRounds(budget *membudget.Budget) *splitRounds {
	return &splitRounds{seed: maphash.MakeSeed(), budget: budget, now: time.Now, m: map[state.BrokerKey]*brokerRound{}}
}

// shape computes a registration's shape.
func (sr *splitRounds) shape(cmd *state.RegisterBroker) regShape {
	var sum uint64
	for _, tc := range cmd.TopicConfigs {
		sum += maphash.String(sr.seed, tc.TopicName)
	}
	return regShape{dv: cmd.DataVersion, n: len(cmd.TopicConfigs), names: sum}
}

// roundStep is the tracker's verdict on one registration.
type roundStep struct {
	// continuation: a later part of a round whose first part brought a new
	// DataVersion, so its topics are compared with the state as the first
	// part's were, not skipped for an unchanged DataVersion.
	continuation bool
	// deleteUnlisted: the registration lists the broker's whole table, so
	// deleteTopicWithBrokerRegistration may remove what it does not list.
	deleteUnlisted bool
	// whole is, at the end of a round gathered for deletion, the round's
	// whole table under the last part's header, with deleteUnlisted set.
	whole *state.RegisterBroker
}

// observe records one registration of key, in the order the broker sent
// it, and says how to apply it. cmd is the decoded registration (its topics
// are gathered when deleting is on); liveDV looks up the DataVersion the
// state holds for the broker, if any, and is asked only when a round starts
// (not for the heartbeats that continue nothing).
func (sr *splitRounds) observe(key state.BrokerKey, sh regShape, cmd *state.RegisterBroker, deleting bool,
	liveDV func(state.BrokerKey) *state.DataVersion) roundStep {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	r := sr.m[key]
	if r == nil {
		if len(sr.m) >= roundBrokersMax {
			for _, old := range sr.m {
				old.release(sr.budget)
			}
			clear(sr.m)
		}
		r = &brokerRound{}
		sr.m[key] = r
	}
	r.seen = sr.now()
	if r.continues(sh) {
		return r.add(sh, cmd, sr.budget)
	}
	r.start(sh, cmd, deleting, liveDV(key), sr.budget)
	return roundStep{deleteUnlisted: deleting && r.mode == modeWhole}
}

// forget drops what is kept of a broker that left.
func (sr *splitRounds) forget(key state.BrokerKey) {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	if r := sr.m[key]; r != nil {
		r.release(sr.budget)
		delete(sr.m, key)
	}
}

// sweep drops what is kept of the brokers live no longer names, and the
// topics of rounds that have had no part for maxAge (such a round deletes
// nothing; what the tracker learned of the broker stays).
func (sr *splitRounds) sweep(live func(state.BrokerKey) bool, maxAge time.Duration) {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	cutoff := sr.now().Add(-maxAge)
	for key, r := range sr.m {
		switch {
		case !live(key):
			r.release(sr.budget)
			delete(sr.m, key)
		case r.gathering && r.seen.Before(cutoff):
			r.release(sr.budget)
			r.over = true
		}
	}
}

// release frees the round's gathered topics.
func (r *brokerRound) release(b *membudget.Budget) {
	b.Release(r.held)
	r.held, r.topics = 0, nil
}

// continues reports whether a registration of shape sh is the next part of
// r's open round.
func (r *brokerRound) continues(sh regShape) bool {
	switch {
	case !r.open || sh.n > r.first || len(r.parts) >= roundPartsMax || slices.Contains(r.parts, sh.names):
		return false
	case r.mode == modeWhole:
		// A broker sending whole tables lists the same topics under the
		// same DataVersion; parts under it mean it now splits.
		return sh.dv == r.dv
	}
	return true
}

// add takes the next part of the open round.
func (r *brokerRound) add(sh regShape, cmd *state.RegisterBroker, b *membudget.Budget) roundStep {
	r.parts = append(r.parts, sh.names)
	r.gather(cmd, b)
	step := roundStep{continuation: r.fresh}
	if sh.n == r.first {
		return step
	}
	// A part smaller than the first ends the round. A round with fewer
	// parts than the last one may have lost a part on the way (a
	// registration that failed), and one whose parts are not the size the
	// last round's were follows a change of the broker's settings: either
	// deletes nothing, and sets what the next round is held to.
	complete := len(r.parts) >= r.lastParts && r.first == r.lastFirst
	r.mode, r.open, r.lastParts, r.lastFirst = modeSplit, false, len(r.parts), r.first
	if r.gathering && !r.over && complete && cmd != nil {
		whole := *cmd
		// Not a continuation: the parts applied the topics; this checks
		// what the table no longer lists.
		whole.TopicConfigs, whole.DeleteUnlistedTopics, whole.Continuation = r.topics, true, false
		step.whole = &whole
	}
	r.release(b)
	r.parts, r.gathering = nil, false
	return step
}

// start begins a round with a registration that continues none.
func (r *brokerRound) start(sh regShape, cmd *state.RegisterBroker, deleting bool, liveDV *state.DataVersion, b *membudget.Budget) {
	if r.open && len(r.parts) == 1 {
		// The previous round was one registration followed by one that did
		// not continue it: the broker sends whole tables.
		r.mode, r.lastParts, r.lastFirst = modeWhole, 1, r.first
	}
	r.open, r.dv, r.first = sh.n > 0, sh.dv, sh.n
	r.fresh = liveDV == nil || *liveDV != sh.dv
	r.parts = append(r.parts[:0], sh.names)
	// Only a broker known to split has its rounds gathered: the first round
	// seen from a broker may have begun before this member saw it.
	r.release(b)
	r.gathering, r.over = deleting && r.mode == modeSplit, false
	r.gather(cmd, b)
}

// gather adds a part's topics to the round's table, charged to b.
func (r *brokerRound) gather(cmd *state.RegisterBroker, b *membudget.Budget) {
	switch {
	case !r.gathering || r.over:
		return
	case cmd == nil || len(r.topics)+len(cmd.TopicConfigs) > roundTopicsMax:
		r.over = true
		r.release(b)
		return
	}
	n := topicBytes(cmd.TopicConfigs)
	if !b.Acquire(context.Background(), n, 0) {
		r.over = true
		r.release(b)
		return
	}
	r.held += n
	r.topics = append(r.topics, cmd.TopicConfigs...)
}

// topicBytes is what holding tcs costs: the configs and their names.
func topicBytes(tcs []state.TopicConfig) int64 {
	n := int64(len(tcs)) * int64(unsafe.Sizeof(state.TopicConfig{}))
	for i := range tcs {
		n += int64(len(tcs[i].TopicName))
	}
	return n
}
