package cluster

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm/state"
)

// Every member's wall clock jumps forward and back by an hour while the
// members' monotonic clocks are skewed by an hour against each other, and
// leadership changes once: no live broker expires, and a silent one
// expires after its TTL and no later than its TTL plus the election and a
// few scans.
func TestCluster_WallClockJumpsAndSkewedClocksExpireOnlyTheSilentBroker(t *testing.T) {
	const ttl = 1500 * time.Millisecond
	var wallJump atomic.Int64
	skew := map[string]time.Duration{"n1": 0, "n2": time.Hour, "n3": -time.Hour}
	tc := newTestCluster(t, 3, func(c *Config) {
		offset := skew[c.ID]
		c.BrokerExpiry = ttl
		c.Clock = func() time.Time { return time.Now().Add(offset) }
		c.WallClock = func() time.Time { return time.Now().Add(offset + time.Duration(wallJump.Load())) }
	})
	leader := tc.waitLeaderReady()
	var alive []*state.RegisterBroker
	for i := range 4 {
		cmd := registration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i+1), 0, 1)
		register(t, tc.running()[i%3], cmd)
		alive = append(alive, cmd)
	}
	silent := registration("c1", "broker-silent", "10.0.1.1:10911", 0, 1)
	register(t, leader, silent)
	silentSince := time.Now()
	tc.waitApplied(leader.node.Raft().LastIndex())

	jumps := []time.Duration{time.Hour, -time.Hour, 0}
	var expiredAfter time.Duration
	// tookOffice is when the last leader took office, as far as the loop
	// sees: at the step-down below, and at any election of a slow run.
	var tookOffice time.Time
	// latest is how long after it was last heard the silent broker may
	// still be kept: its TTL after the last leader took office, plus a
	// second for scans and replication.
	latest := func() time.Duration { return tookOffice.Sub(silentSince) + ttl + time.Second }
	steppedDown := false
	term := leader.node.Raft().CurrentTerm()
	// The loop watches until the broker expires or its latest moment has
	// passed, which a loaded machine's slow elections push back.
	for i := 0; expiredAfter == 0 && (tookOffice.IsZero() || time.Since(silentSince) <= latest()); i++ {
		if time.Since(silentSince) > time.Minute {
			t.Fatal("leadership did not change within a minute")
		}
		wallJump.Store(int64(jumps[i/5%len(jumps)]))
		if !steppedDown && time.Since(silentSince) > ttl/2 {
			// A leader that lost office between the lookup and the
			// step-down is asked again through the next lookup.
			err := tc.waitLeaderReady().node.StepDown()
			if err != nil && !errors.Is(err, ErrNotLeader) && !errors.Is(err, raft.ErrNotLeader) {
				t.Fatal(err)
			}
			steppedDown = err == nil
		}
		if now := tc.waitLeaderReady().node.Raft().CurrentTerm(); now != term {
			term, tookOffice = now, time.Now()
		}
		// Heartbeats through every member, and a changed registration
		// now and then, stamped with the jumping wall clocks.
		for j, cmd := range alive {
			m := tc.running()[(i+j)%3]
			if i%4 == j {
				cmd.DataVersion.Counter++
				register(t, m, cmd)
			} else {
				m.node.Heartbeat(cmd.Key())
			}
		}
		for _, m := range tc.running() {
			for _, cmd := range alive {
				if !registered(m, cmd) {
					t.Fatalf("%s lost live broker %s (wall clocks %v off)", m.id, cmd.BrokerAddr, jumps[i/5%len(jumps)])
				}
			}
			if expiredAfter == 0 && !registered(m, silent) {
				expiredAfter = time.Since(silentSince)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The new leader restarts every lease on taking office: the silent
	// broker is kept at most its TTL after that, plus scans and
	// replication.
	if expiredAfter == 0 {
		t.Fatalf("silent broker still registered %v after it was last heard, past %v (TTL after the election, and a second)",
			time.Since(silentSince), latest())
	}
	if expiredAfter < ttl || expiredAfter > latest() {
		t.Fatalf("silent broker expired %v after it was last heard, want between its TTL %v and %v (TTL after the election, and a second)",
			expiredAfter, ttl, latest())
	}
}
