package cluster

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// Flags of the chaos test. The seed fixes the fault schedule and every
// writer's choices; goroutine timing still varies between runs, so a seed
// replays the same schedule, not the same interleaving.
var (
	chaosSeed     = flag.Uint64("chaos.seed", 20250611, "seed of the chaos test's fault schedule and writes")
	chaosDuration = flag.Duration("chaos.duration", 6*time.Second, "how long the chaos test injects faults")
)

// TestCluster_ChaosKeepsAcknowledgedWrites writes through random members
// while a seeded schedule partitions, stops, restarts members and moves
// leadership (docs/contributors/design.md, "Testing with faults"). While it runs, samples check one ready
// leader per term, a never-decreasing applied index per running member and
// equal digests at equal applied indexes. After the schedule, with every
// member back and connected, every acknowledged write must be on every
// member and the members' states must be equal.
func TestCluster_ChaosKeepsAcknowledgedWrites(t *testing.T) {
	cases := []struct {
		name    string
		members int
		writers int
	}{
		{"3 members", 3, 3},
		{"5 members", 5, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runChaos(t, c.members, c.writers, *chaosSeed, *chaosDuration)
		})
	}
}

func runChaos(t *testing.T, members, writers int, seed uint64, d time.Duration) {
	replay := fmt.Sprintf("go test -race ./cluster -run '%s' -args -chaos.seed=%d -chaos.duration=%v", t.Name(), seed, d)
	t.Logf("chaos seed %d, %d members, %d writers, %v of faults; replay: %s", seed, members, writers, d, replay)
	tc := newTestCluster(t, members, func(c *Config) {
		c.BrokerExpiry = 10 * time.Minute
		// Small snapshot settings, so that restarts restore from snapshots
		// and lagging members catch up by installing one (the harness keeps
		// each member's file snapshot store across restarts).
		c.RaftConfig.SnapshotThreshold = 64
		c.RaftConfig.SnapshotInterval = 200 * time.Millisecond
		c.RaftConfig.TrailingLogs = 32
	})
	defer func() {
		if t.Failed() {
			for _, m := range tc.running() {
				t.Logf("%s at the end: %+v", m.id, m.node.Status())
			}
			t.Logf("FAILED with chaos seed %d (%d members); replay: %s", seed, members, replay)
		}
	}()
	view := newChaosView(tc)
	inv := newChaosInvariants()

	stopSampler, samplerDone := make(chan struct{}), make(chan struct{})
	go inv.run(view, stopSampler, samplerDone)
	defer func() {
		select {
		case <-samplerDone:
		default:
			close(stopSampler)
			<-samplerDone
		}
	}()

	stopWriters := make(chan struct{})
	var stopOnce sync.Once
	var wg sync.WaitGroup
	// A fatal failure below must not leave writers running.
	defer func() {
		stopOnce.Do(func() { close(stopWriters) })
		wg.Wait()
	}()
	ws := make([]*chaosWriter, writers)
	for i := range ws {
		ws[i] = newChaosWriter(i, seed)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws[i].run(view, stopWriters)
		}()
	}

	inj := newChaosInjector(tc, view, seed)
	inj.run(d)
	faults := inj.summary()
	stopOnce.Do(func() { close(stopWriters) })
	wg.Wait()

	inj.healAll()
	converge(t, tc)
	close(stopSampler)
	<-samplerDone

	report(t, seed, tc, view, inv, faults, ws)
}

// converge waits for a ready leader, for every member to have applied the
// leader's last index, and for equal state everywhere.
func converge(t *testing.T, tc *testCluster) {
	t.Helper()
	leader := tc.waitLeaderReady()
	last := leader.node.Raft().LastIndex()
	poll.For(t, 20*time.Second, fmt.Sprintf("every member to apply index %d", last), func() bool {
		for _, m := range tc.running() {
			if m.node.Raft().AppliedIndex() < last {
				return false
			}
		}
		return true
	})
	tc.waitSame()
}

// report checks the final state against the writers' histories and logs
// what the run did.
func report(t *testing.T, seed uint64, tc *testCluster, view *chaosView, inv *chaosInvariants, faults string, ws []*chaosWriter) {
	t.Helper()
	var problems []string
	late := 0
	var regOK, regFail, kvOK, kvFail int
	errs := map[string]int{}
	owned := map[string]bool{}
	for _, w := range ws {
		regOK, regFail, kvOK, kvFail = regOK+w.regOK, regFail+w.regFail, kvOK+w.kvOK, kvFail+w.kvFail
		for k, n := range w.errs {
			errs[k] += n
		}
		for _, b := range w.brokers {
			owned[b.addr] = true
		}
	}
	running := tc.running()
	digest := running[0].node.FSM().Digest()
	for _, m := range running {
		f := m.node.FSM()
		if f.Digest() != digest {
			problems = append(problems, fmt.Sprintf("%s: digest %x differs from %s's %x", m.id, f.Digest(), running[0].id, digest))
		}
		for _, w := range ws {
			p, l := w.checkMember(m.id, f)
			problems = append(problems, p...)
			late += l
		}
		for _, reg := range f.Registrations() {
			if !owned[reg.Key.Addr] {
				problems = append(problems, fmt.Sprintf("%s: unexpected broker %+v", m.id, reg.Key))
			}
		}
	}
	snapshotted := 0
	for _, m := range running {
		if metas, err := m.node.stores.snaps.List(); err == nil && len(metas) > 0 {
			snapshotted++
		}
	}
	if n := view.sum(func(s *Stats) uint64 { return s.Expirations.Load() }); n != 0 {
		problems = append(problems, fmt.Sprintf("%d brokers expired although the expiry is 10 minutes", n))
	}
	inv.mu.Lock()
	problems = append(problems, inv.violations...)
	samples, digests, digestChecks, terms := inv.samples, inv.digests, inv.digestChecks, len(inv.leaderOfTerm)
	inv.mu.Unlock()
	if regOK+kvOK == 0 {
		problems = append(problems, "no write was acknowledged: the run proved nothing")
	}

	t.Logf("faults: %s", faults)
	t.Logf("writes: registrations %d acknowledged, %d failed; KV puts %d acknowledged, %d failed; failures by kind %v; forwarded by followers %d (%d failed tries)",
		regOK, regFail, kvOK, kvFail, errs,
		view.sum(func(s *Stats) uint64 { return s.ForwardedOut.Load() }), view.sum(func(s *Stats) uint64 { return s.ForwardFailures.Load() }))
	t.Logf("invariant samples %d, digests sampled %d (%d compared at a shared index), ready leaders seen in %d terms, %d of %d members hold a snapshot",
		samples, digests, digestChecks, terms, snapshotted, len(running))
	if late > 0 {
		t.Logf("%d member-keys end with a write that failed at the writer but was applied after a later acknowledged one", late)
	}
	if len(problems) > 0 {
		if len(problems) > 40 {
			problems = append(problems[:40], fmt.Sprintf("... and %d more", len(problems)-40))
		}
		t.Errorf("chaos seed %d: %d problems:\n%s", seed, len(problems), strings.Join(problems, "\n"))
	}
}

// chaosInjector applies the seeded fault schedule. It runs on the test
// goroutine, the only one that calls the harness's stop, start, partition
// and connectAll.
type chaosInjector struct {
	tc          *testCluster
	view        *chaosView
	rng         *rand.Rand
	members     []*testMember
	minority    int
	partitioned map[string]bool
	counts      map[string]int
}

func newChaosInjector(tc *testCluster, view *chaosView, seed uint64) *chaosInjector {
	tc.mu.Lock()
	var ms []*testMember
	for _, id := range sortedIDs(tc.members) {
		ms = append(ms, tc.members[id])
	}
	tc.mu.Unlock()
	return &chaosInjector{
		tc: tc, view: view, rng: rand.New(rand.NewPCG(seed, 0)), members: ms,
		minority: (len(ms) - 1) / 2, partitioned: map[string]bool{}, counts: map[string]int{},
	}
}

// run injects faults for d. The pauses between steps are the schedule's
// load shape, not waits for a condition.
func (inj *chaosInjector) run(d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		time.Sleep(time.Duration(50+inj.rng.IntN(300)) * time.Millisecond)
		inj.step()
	}
}

// step picks one fault by weight among those allowed now: at most a
// minority stopped, at most a minority plus one stopped or partitioned (so
// quorum is sometimes lost for a while).
func (inj *chaosInjector) step() {
	stopped, up := inj.split()
	faulty := len(stopped) + len(inj.partitioned)
	type choice struct {
		weight int
		do     func()
	}
	var choices []choice
	if faulty < inj.minority+1 {
		var candidates []*testMember
		for _, m := range up {
			if !inj.partitioned[m.id] {
				candidates = append(candidates, m)
			}
		}
		if len(candidates) > 0 {
			choices = append(choices, choice{3, func() { inj.partition(candidates[inj.rng.IntN(len(candidates))]) }})
		}
	}
	if len(inj.partitioned) > 0 {
		choices = append(choices, choice{2, inj.heal})
	}
	if len(stopped) < inj.minority && faulty < inj.minority+1 {
		choices = append(choices,
			choice{2, func() { inj.stop(up[inj.rng.IntN(len(up))], false) }},
			choice{1, func() { inj.stop(up[inj.rng.IntN(len(up))], true) }})
	}
	if len(stopped) > 0 {
		choices = append(choices, choice{3, func() { inj.restart(stopped[inj.rng.IntN(len(stopped))]) }})
	}
	choices = append(choices, choice{1, inj.transfer})
	total := 0
	for _, c := range choices {
		total += c.weight
	}
	r := inj.rng.IntN(total)
	for _, c := range choices {
		if r < c.weight {
			c.do()
			return
		}
		r -= c.weight
	}
}

func (inj *chaosInjector) split() (stopped, up []*testMember) {
	for _, m := range inj.members {
		if m.closed {
			stopped = append(stopped, m)
		} else {
			up = append(up, m)
		}
	}
	return stopped, up
}

func (inj *chaosInjector) partition(m *testMember) {
	inj.tc.partition(m)
	inj.partitioned[m.id] = true
	inj.counts["partition"]++
}

func (inj *chaosInjector) heal() {
	inj.tc.connectAll()
	clear(inj.partitioned)
	inj.counts["heal"]++
}

// stop removes the member from the writers' view first, then shuts it down
// with its stores kept. A crash cuts the member off first, so that a leader
// cannot hand leadership over on its way out.
func (inj *chaosInjector) stop(m *testMember, crash bool) {
	kind := "stop"
	if crash {
		kind = "crash"
	}
	if m.node.IsLeader() {
		inj.counts[kind+" leader"]++
	} else {
		inj.counts[kind+" follower"]++
	}
	inj.view.remove(m.id)
	if crash {
		inj.tc.partition(m)
	}
	inj.tc.stop(m)
	delete(inj.partitioned, m.id)
}

// restart starts the member on its kept stores; starting reconnects every
// transport, so it heals partitions too.
func (inj *chaosInjector) restart(m *testMember) {
	inj.tc.start(m, nil)
	inj.view.add(m.id, m.node)
	clear(inj.partitioned)
	inj.counts["restart"]++
}

// transfer asks the current leader, if any runs, to hand leadership over.
func (inj *chaosInjector) transfer() {
	for _, n := range inj.view.running() {
		if n.IsLeader() {
			if err := n.Raft().LeadershipTransfer().Error(); err != nil {
				inj.counts["transfer failed"]++
				return
			}
			inj.counts["transfer"]++
			return
		}
	}
	inj.counts["transfer without leader"]++
}

// healAll restarts every stopped member and reconnects everyone.
func (inj *chaosInjector) healAll() {
	stopped, _ := inj.split()
	for _, m := range stopped {
		inj.restart(m)
	}
	inj.heal()
}

func (inj *chaosInjector) summary() string {
	keys := make([]string, 0, len(inj.counts))
	for k := range inj.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, inj.counts[k]))
	}
	return strings.Join(parts, ", ")
}

// TestJudgeFinal_AcceptsOnlyTheLastAcknowledgedOrAnUnansweredWrite pins the
// chaos test's verdict on a key's final value.
func TestJudgeFinal_AcceptsOnlyTheLastAcknowledgedOrAnUnansweredWrite(t *testing.T) {
	hist := []chaosAttempt[string]{{"a", true}, {"b", false}, {"c", true}, {"d", false}}
	cases := []struct {
		name     string
		attempts []chaosAttempt[string]
		got      string
		present  bool
		wantBad  bool
		wantLate bool
	}{
		{"last acknowledged", hist, "c", true, false, false},
		{"unanswered after the last acknowledged", hist, "d", true, false, false},
		{"unanswered before the last acknowledged is late", hist, "b", true, false, true},
		{"older acknowledged value", hist, "a", true, true, false},
		{"value never written", hist, "x", true, true, false},
		{"missing after an acknowledgement", hist, "", false, true, false},
		{"missing with nothing acknowledged", []chaosAttempt[string]{{"a", false}}, "", false, false, false},
		{"unanswered only write applied", []chaosAttempt[string]{{"a", false}}, "a", true, false, false},
		{"present with no write", nil, "a", true, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			problem, late := judgeFinal(c.attempts, c.got, c.present)
			if (problem != "") != c.wantBad || late != c.wantLate {
				t.Fatalf("judgeFinal(%v, %q, %v) = %q, late %v; want problem %v, late %v",
					c.attempts, c.got, c.present, problem, late, c.wantBad, c.wantLate)
			}
		})
	}
}
