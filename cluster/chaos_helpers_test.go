package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// chaosView is the set of running member incarnations the chaos test's
// writers and sampler use. Only the fault injector (the test goroutine)
// touches the harness's testMember fields; everyone else goes through here.
type chaosView struct {
	mu    sync.RWMutex
	nodes map[string]*Node // running incarnation by member id
	all   []*Node          // every incarnation ever started
}

func newChaosView(tc *testCluster) *chaosView {
	v := &chaosView{nodes: map[string]*Node{}}
	for _, m := range tc.running() {
		v.add(m.id, m.node)
	}
	return v
}

func (v *chaosView) add(id string, n *Node) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.nodes[id] = n
	v.all = append(v.all, n)
}

func (v *chaosView) remove(id string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.nodes, id)
}

// running returns the running incarnations sorted by member id.
func (v *chaosView) running() []*Node {
	v.mu.RLock()
	defer v.mu.RUnlock()
	ids := make([]string, 0, len(v.nodes))
	for id := range v.nodes {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]*Node, 0, len(ids))
	for _, id := range ids {
		out = append(out, v.nodes[id])
	}
	return out
}

// pick returns a random running member, nil when none runs.
func (v *chaosView) pick(rng *rand.Rand) *Node {
	ns := v.running()
	if len(ns) == 0 {
		return nil
	}
	return ns[rng.IntN(len(ns))]
}

// sum adds up one counter over every incarnation.
func (v *chaosView) sum(counter func(*Stats) uint64) uint64 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	var sum uint64
	for _, n := range v.all {
		sum += counter(n.Stats())
	}
	return sum
}

// chaosInvariants checks, from samples taken while faults are injected:
// at most one ready leader per term, a running member's FSM applied index
// never decreasing, and members at the same applied index agreeing on the
// state digest.
type chaosInvariants struct {
	mu           sync.Mutex
	leaderOfTerm map[uint64]string
	applied      map[*Node]uint64
	digestAt     map[uint64]digestSample
	violations   []string
	samples      int
	digests      int
	digestChecks int
}

type digestSample struct {
	member string
	digest [32]byte
}

// maxViolations bounds how many violations are kept for the report.
const maxViolations = 20

func newChaosInvariants() *chaosInvariants {
	return &chaosInvariants{
		leaderOfTerm: map[uint64]string{},
		applied:      map[*Node]uint64{},
		digestAt:     map[uint64]digestSample{},
	}
}

func (ci *chaosInvariants) violate(format string, args ...any) {
	if len(ci.violations) < maxViolations {
		ci.violations = append(ci.violations, fmt.Sprintf(format, args...))
	}
}

// sample takes one member's readings. A ready leader counts for a term only
// when the term and the Leader state read the same before and after the
// ready flag, so a member caught mid-transition is not blamed.
func (ci *chaosInvariants) sample(n *Node, withDigest bool) {
	r := n.Raft()
	t1, s1 := r.CurrentTerm(), r.State()
	ready := n.LeaderReady()
	s2, t2 := r.State(), r.CurrentTerm()
	idx := n.FSM().AppliedIndex()
	var d [32]byte
	digestOK := false
	if withDigest {
		d = n.FSM().Digest()
		digestOK = n.FSM().AppliedIndex() == idx
	}
	ci.mu.Lock()
	defer ci.mu.Unlock()
	ci.samples++
	if ready && t1 == t2 && s1 == raft.Leader && s2 == raft.Leader {
		if other, ok := ci.leaderOfTerm[t1]; ok && other != n.ID() {
			ci.violate("two ready leaders in term %d: %s and %s", t1, other, n.ID())
		}
		ci.leaderOfTerm[t1] = n.ID()
	}
	if prev := ci.applied[n]; idx < prev {
		ci.violate("%s applied index went back from %d to %d", n.ID(), prev, idx)
	} else {
		ci.applied[n] = idx
	}
	if !digestOK {
		return
	}
	ci.digests++
	if seen, ok := ci.digestAt[idx]; ok {
		ci.digestChecks++
		if seen.digest != d && seen.member != n.ID() {
			ci.violate("state digests differ at applied index %d: %s %x, %s %x", idx, seen.member, seen.digest[:6], n.ID(), d[:6])
		}
		return
	}
	ci.digestAt[idx] = digestSample{member: n.ID(), digest: d}
}

// run samples every running member until stop closes; every fifth round
// also compares state digests.
func (ci *chaosInvariants) run(v *chaosView, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for round := 0; ; round++ {
		for _, n := range v.running() {
			ci.sample(n, round%5 == 0)
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// chaosAttempt is one write a writer sent: the value it wrote and whether
// the cluster answered success.
type chaosAttempt[V comparable] struct {
	v     V
	acked bool
}

// judgeFinal decides whether a key's final state is allowed by its write
// history. Allowed: the last acknowledged value, or the value of a write
// whose outcome the writer never learned (failed or timed out; it may have
// been applied). Such a write sent before the last acknowledged one and
// still winning is reported as late: the acknowledged value was
// overwritten by a write the cluster had answered with an error.
func judgeFinal[V comparable](attempts []chaosAttempt[V], got V, present bool) (problem string, late bool) {
	lastAck := -1
	for i, a := range attempts {
		if a.acked {
			lastAck = i
		}
	}
	if !present {
		if lastAck >= 0 {
			return fmt.Sprintf("missing; last acknowledged %v (%d attempts)", attempts[lastAck].v, len(attempts)), false
		}
		return "", false
	}
	for i := len(attempts) - 1; i >= 0; i-- {
		a := attempts[i]
		if a.v != got {
			continue
		}
		switch {
		case i == lastAck:
			return "", false
		case i > lastAck:
			return "", false // an unanswered write after the last acknowledged one
		case a.acked:
			return fmt.Sprintf("has %v, an older acknowledged value; last acknowledged %v", got, attempts[lastAck].v), false
		default:
			return "", true
		}
	}
	if lastAck >= 0 {
		return fmt.Sprintf("has %v, never written; last acknowledged %v", got, attempts[lastAck].v), false
	}
	return fmt.Sprintf("has %v, never written; nothing acknowledged", got), false
}

// chaosBroker is one broker a writer owns; its DataVersion counter grows
// with every registration attempt, so each attempt is distinguishable.
type chaosBroker struct {
	name, addr string
	attempts   []chaosAttempt[int64]
}

// chaosWriter registers brokers and puts KV pairs through random members.
// It owns its brokers and keys, so their last value is well defined.
type chaosWriter struct {
	id      int
	rng     *rand.Rand
	brokers []*chaosBroker
	kv      map[string][]chaosAttempt[string]
	seq     int
	regOK   int
	regFail int
	kvOK    int
	kvFail  int
	errs    map[string]int
}

// Writer limits: brokers per writer, keys per writer, per-write deadline.
const (
	chaosMaxBrokers   = 40
	chaosKeys         = 8
	chaosWriteTimeout = 10 * time.Second
	chaosKVNamespace  = "CHAOS"
	chaosCluster      = "chaos"
)

func newChaosWriter(id int, seed uint64) *chaosWriter {
	return &chaosWriter{
		id:   id,
		rng:  rand.New(rand.NewPCG(seed, uint64(id)+1)),
		kv:   map[string][]chaosAttempt[string]{},
		errs: map[string]int{},
	}
}

// run writes until stop closes, with short random pauses between writes.
func (w *chaosWriter) run(v *chaosView, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(w.rng.IntN(15)) * time.Millisecond):
		}
		n := v.pick(w.rng)
		if n == nil {
			continue
		}
		if w.rng.IntN(2) == 0 {
			w.register(n)
		} else {
			w.put(n)
		}
	}
}

func (w *chaosWriter) register(n *Node) {
	var b *chaosBroker
	if len(w.brokers) == 0 || (len(w.brokers) < chaosMaxBrokers && w.rng.IntN(3) == 0) {
		k := len(w.brokers)
		b = &chaosBroker{
			name: fmt.Sprintf("w%d-broker-%02d", w.id, k),
			addr: fmt.Sprintf("10.%d.%d.%d:10911", w.id+1, k/250, k%250),
		}
		w.brokers = append(w.brokers, b)
	} else {
		b = w.brokers[w.rng.IntN(len(w.brokers))]
	}
	counter := int64(len(b.attempts) + 1)
	cmd := registration(chaosCluster, b.name, b.addr, 0, counter)
	b.attempts = append(b.attempts, chaosAttempt[int64]{v: counter})
	ctx, cancel := context.WithTimeout(context.Background(), chaosWriteTimeout)
	defer cancel()
	if _, err := n.Register(ctx, cmd); err != nil {
		w.regFail++
		w.errs[errClass(err)]++
		return
	}
	b.attempts[len(b.attempts)-1].acked = true
	w.regOK++
}

func (w *chaosWriter) put(n *Node) {
	key := fmt.Sprintf("w%d-key-%d", w.id, w.rng.IntN(chaosKeys))
	w.seq++
	val := fmt.Sprintf("w%d-v%d", w.id, w.seq)
	w.kv[key] = append(w.kv[key], chaosAttempt[string]{v: val})
	ctx, cancel := context.WithTimeout(context.Background(), chaosWriteTimeout)
	defer cancel()
	if _, err := n.Apply(ctx, fsm.PutKVType, &state.PutKV{Namespace: chaosKVNamespace, Key: key, Value: val, HasValue: true}); err != nil {
		w.kvFail++
		w.errs[errClass(err)]++
		return
	}
	hist := w.kv[key]
	hist[len(hist)-1].acked = true
	w.kvOK++
}

// errClass names the kind of a failed write for the summary.
func errClass(err error) string {
	switch {
	case errors.Is(err, ErrShutdown):
		return "shutdown"
	case errors.Is(err, ErrNoLeader):
		return "no leader"
	case errors.Is(err, ErrLeaderNotReady):
		return "leader not ready"
	case errors.Is(err, ErrNotLeader):
		return "not leader"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline"
	}
	return "other: " + err.Error()
}

// checkMember compares one member's final state with the writers'
// histories and returns what is wrong, and how many keys hold a late write.
func (w *chaosWriter) checkMember(id string, f *fsm.FSM) (problems []string, late int) {
	for _, b := range w.brokers {
		key := state.BrokerKey{Cluster: chaosCluster, Addr: b.addr}
		reg, ok := f.Registration(key)
		p, l := judgeFinal(b.attempts, reg.DataVersion.Counter, ok)
		if p != "" {
			problems = append(problems, fmt.Sprintf("%s: broker %s (%s) DataVersion counter: %s", id, b.name, b.addr, p))
			continue
		}
		if l {
			late++
		}
		if !ok {
			continue
		}
		if reg.BrokerName != b.name || reg.HaServerAddr != b.addr+"-ha" {
			problems = append(problems, fmt.Sprintf("%s: broker %s registered as %+v", id, b.addr, reg))
		}
		if route, ok := f.Route("T-"+b.name, false); !ok || len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerAddrs[0] != b.addr {
			problems = append(problems, fmt.Sprintf("%s: broker %s registered but topic T-%s routes %+v (found %v)", id, b.addr, b.name, route, ok))
		}
	}
	for key, attempts := range w.kv {
		got, ok := f.KV(chaosKVNamespace, key)
		p, l := judgeFinal(attempts, got, ok)
		if p != "" {
			problems = append(problems, fmt.Sprintf("%s: KV %s: %s", id, key, p))
		}
		if l {
			late++
		}
	}
	return problems, late
}
