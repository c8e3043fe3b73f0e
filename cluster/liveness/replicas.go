package liveness

import (
	"time"

	"github.com/raftns/raftns/fsm/state"
)

// ReplicaKey names one broker of a controller-managed group, the way the
// reference controller's heartbeat manager does (cluster, broker name,
// controller-assigned id).
type ReplicaKey struct {
	Cluster    string
	BrokerName string
	ID         int64
}

// ControllerHeartbeat is what a broker in controller mode reports with
// BROKER_HEARTBEAT: its address, its log position for elections and how
// long it may stay silent.
type ControllerHeartbeat struct {
	Key              ReplicaKey
	Addr             string
	Epoch            int32
	MaxOffset        int64
	ConfirmOffset    int64
	TimeoutMillis    int64
	ElectionPriority int32
}

// ReplicaLive is the leader's view of one replica, for the election policy.
type ReplicaLive struct {
	Epoch            int32
	MaxOffset        int64
	ElectionPriority int32
}

// replicaLease is the leader's soft state about one replica.
type replicaLease struct {
	addr     string
	lastSeen time.Time
	timeout  time.Duration
	live     ReplicaLive
	// reported is false until the replica's own heartbeat reached this
	// leader; until then live holds no log position.
	reported bool
}

// replicaLeases is the controller half of the leader's liveness table
// (docs/operators/controller.md, "Liveness"). Like the broker leases it exists only
// while this member is in office and starts with every replica just heard
// from; it is guarded by the lessor's lock.
type replicaLeases struct {
	now        func() time.Time
	defTimeout time.Duration
	// settledAt is when every live member has had the chance to report the
	// broker connections it holds after this term of office started; a
	// connection close seen before then counts only from that moment and
	// only if no member reports the broker connected.
	settledAt time.Time
	// start is when this term of office began; otherVoters how many voters
	// besides this member there were then; reporters the members whose
	// batch arrived since. Once a majority reported (and SettleMargin
	// passed) or every other voter did, closes count before settledAt.
	start       time.Time
	otherVoters int
	reporters   map[string]bool
	leases      map[ReplicaKey]*replicaLease
	// selfClosed is when a broker's connection to this leader closed while
	// in office: the reference controller's "channel inactive".
	selfClosed map[state.BrokerKey]time.Time
	// reportedClosed is when a member's batch first reported a broker's
	// connection closed (since the last sign of life).
	reportedClosed map[state.BrokerKey]time.Time
}

func newReplicaLeases(now func() time.Time, defTimeout, settle time.Duration, otherVoters int, groups []state.ReplicaGroup) *replicaLeases {
	start := now()
	r := &replicaLeases{now: now, defTimeout: defTimeout, settledAt: start.Add(settle),
		start: start, otherVoters: otherVoters, reporters: map[string]bool{},
		leases: map[ReplicaKey]*replicaLease{}, selfClosed: map[state.BrokerKey]time.Time{},
		reportedClosed: map[state.BrokerKey]time.Time{}}
	for _, g := range groups {
		for _, b := range g.Brokers {
			k := ReplicaKey{Cluster: g.ClusterName, BrokerName: g.BrokerName, ID: b.ID}
			r.leases[k] = &replicaLease{addr: b.Addr, lastSeen: start, timeout: defTimeout,
				live: ReplicaLive{Epoch: -1, MaxOffset: -1, ElectionPriority: 1<<31 - 1}}
		}
	}
	return r
}

// heard takes a heartbeat: like the reference, the log position only moves
// forward (a higher epoch, or a higher offset in the same epoch).
func (r *replicaLeases) heard(hb ControllerHeartbeat) {
	l, ok := r.leases[hb.Key]
	if !ok {
		l = &replicaLease{live: ReplicaLive{Epoch: -1, MaxOffset: -1}}
		r.leases[hb.Key] = l
	}
	l.addr, l.lastSeen = hb.Addr, r.now()
	l.timeout = r.defTimeout
	if hb.TimeoutMillis > 0 {
		l.timeout = time.Duration(hb.TimeoutMillis) * time.Millisecond
	}
	l.live.ElectionPriority = hb.ElectionPriority
	if !l.reported || hb.Epoch > l.live.Epoch || hb.Epoch == l.live.Epoch && hb.MaxOffset > l.live.MaxOffset {
		l.live.Epoch, l.live.MaxOffset = hb.Epoch, hb.MaxOffset
	}
	l.reported = true
}

// alive reports whether a replica counts as active at now: heard from
// within its timeout and its connection not closed since. routes gives the
// broker-connection evidence the route leases hold.
func (r *replicaLeases) alive(key ReplicaKey, now time.Time, routes *tracker) bool {
	l, ok := r.leases[key]
	if !ok || now.Sub(l.lastSeen) > l.timeout {
		return false
	}
	bk := state.BrokerKey{Cluster: key.Cluster, Addr: l.addr}
	if at, ok := r.selfClosed[bk]; ok && !l.lastSeen.After(at) && !routes.lastSeen[bk].After(at) {
		return false
	}
	at, ok := routes.closedAt[bk]
	if rep, reported := r.reportedClosed[bk]; reported && (!ok || rep.After(at)) {
		at, ok = rep, true
	}
	if !ok || l.lastSeen.After(at) || routes.lastSeen[bk].After(at) {
		return true
	}
	// Closed somewhere and nothing heard since: dead once every member
	// could report and none holds a connection from it.
	return !r.settled(now) || routes.heldByAny(bk, now)
}

// settled reports whether enough members have reported since taking office
// for a connection close seen around it to count.
func (r *replicaLeases) settled(now time.Time) bool {
	n := len(r.reporters)
	switch {
	case !now.Before(r.settledAt), n >= r.otherVoters:
		return true
	case 2*(n+1) > r.otherVoters+1:
		return now.Sub(r.start) >= SettleMargin
	}
	return false
}

// prune forgets replicas and connection reports of brokers no longer in
// groups.
func (r *replicaLeases) prune(groups []state.ReplicaGroup) {
	known := map[ReplicaKey]bool{}
	addrs := map[state.BrokerKey]bool{}
	for _, g := range groups {
		for _, b := range g.Brokers {
			known[ReplicaKey{Cluster: g.ClusterName, BrokerName: g.BrokerName, ID: b.ID}] = true
			addrs[state.BrokerKey{Cluster: g.ClusterName, Addr: b.Addr}] = true
		}
	}
	for k := range r.leases {
		if !known[k] {
			delete(r.leases, k)
		}
	}
	for _, m := range []map[state.BrokerKey]time.Time{r.selfClosed, r.reportedClosed} {
		for k := range m {
			if !addrs[k] {
				delete(m, k)
			}
		}
	}
}

// reportClosed records a member's report that a broker's connection closed;
// a repeated report keeps the first time unless the broker was heard from
// since.
func (r *replicaLeases) reportClosed(key state.BrokerKey) {
	at, ok := r.reportedClosed[key]
	if ok && !r.heardSince(key, at) {
		return
	}
	r.reportedClosed[key] = r.now()
}

// heardSince reports whether a replica at the broker's address was heard
// from after t.
func (r *replicaLeases) heardSince(key state.BrokerKey, t time.Time) bool {
	for k, l := range r.leases {
		if k.Cluster == key.Cluster && l.addr == key.Addr && l.lastSeen.After(t) {
			return true
		}
	}
	return false
}

// connClosed records that a broker's connection to this leader closed.
func (r *replicaLeases) connClosed(key state.BrokerKey) { r.selfClosed[key] = r.now() }

// SettleMargin is added to half a heartbeat batch interval to give every
// live follower time to report after a change of leader: a follower sends
// its batch as soon as it learns of the new leader and retries every
// batchRetryStep until the leader, once in office, takes it.
const SettleMargin = 250 * time.Millisecond

// HeardReplica records a controller heartbeat: into the leader's table, or
// this member's batch for the leader.
func (l *Lessor) HeardReplica(hb ControllerHeartbeat) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas != nil {
		l.replicas.heard(hb)
		return
	}
	l.batch.replicas[hb.Key] = hb
}

// ReplicaAlive reports whether the leader counts a replica as active; false
// when this member holds no lease table.
func (l *Lessor) ReplicaAlive(key ReplicaKey) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas == nil {
		return false
	}
	l.leases.setHeld(l.cfg.Self, sortedKeys(l.batch.held))
	return l.replicas.alive(key, l.clock(), l.leases)
}

// PruneReplicas forgets what the leader holds about replicas no longer in
// groups.
func (l *Lessor) PruneReplicas(groups []state.ReplicaGroup) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas != nil {
		l.replicas.prune(groups)
	}
}

// ReplicaLive returns the log position a replica last reported to this
// leader.
func (l *Lessor) ReplicaLive(key ReplicaKey) (ReplicaLive, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas == nil {
		return ReplicaLive{}, false
	}
	r, ok := l.replicas.leases[key]
	if !ok {
		return ReplicaLive{}, false
	}
	return r.live, true
}

// ReplicasSettleAt is when connection closes seen around taking office
// start to count (zero when not in office).
func (l *Lessor) ReplicasSettleAt() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.replicas == nil {
		return time.Time{}
	}
	return l.replicas.settledAt
}
