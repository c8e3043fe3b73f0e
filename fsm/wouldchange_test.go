package fsm

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/raftns/raftns/fsm/state"

	"github.com/hashicorp/go-hclog"
)

// TestFSM_WouldChange_Property builds random states and random
// registrations: WouldChange must be false exactly when Apply leaves the
// state (epochs aside) unchanged, and RegisterResult must equal Apply's
// answer. A false "no change" would silently drop a registration.
func TestFSM_WouldChange_Property(t *testing.T) {
	rng := rand.New(rand.NewSource(20240601))
	var trials, changes, noChanges int
	for round := 0; round < 150; round++ {
		h := newHarness(t)
		h.f.logger = hclog.NewNullLogger()
		for i := rng.Intn(60); i > 0; i-- {
			h.apply(randomCommand(rng, h.index+1))
			if rng.Intn(8) == 0 {
				h.expireRandom(rng)
			}
		}
		for i := 0; i < 30; i++ {
			c := h.candidate(rng)
			before := h.contentDigest()
			would := h.f.WouldChange(c)
			want := h.f.RegisterResult(c)
			got := h.register(c)
			changed := h.contentDigest() != before
			trials++
			if would != changed {
				t.Fatalf("round %d: WouldChange = %v but state changed = %v for %+v", round, would, changed, c)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: RegisterResult = %+v, Apply = %+v", round, want, got)
			}
			if changed {
				changes++
			} else {
				noChanges++
			}
		}
	}
	// The generator must exercise both answers, or the test proves little.
	t.Logf("%d trials: %d changed the state, %d did not", trials, changes, noChanges)
	if changes < trials/10 || noChanges < trials/10 {
		t.Fatalf("trials %d: %d changes, %d no-changes; generator is lopsided", trials, changes, noChanges)
	}
}

// candidate returns a registration likely to be a near-duplicate of a
// current one (the heartbeat case), otherwise a random one.
func (h *harness) candidate(rng *rand.Rand) *state.RegisterBroker {
	regs := h.f.Registrations()
	if len(regs) == 0 || rng.Intn(3) == 0 {
		return randomRegister(rng, h.index+1)
	}
	r := pick(rng, regs)
	c := h.echo(r)
	switch rng.Intn(12) {
	case 0:
		c.HaServerAddr += "x"
	case 1:
		c.ZoneName = "z2"
	case 2:
		c.EnableActingMaster = !c.EnableActingMaster
	case 3:
		c.HeartbeatTimeoutMillis = 5000
	case 4:
		c.FilterServerList = append(c.FilterServerList, "f9")
	case 5:
		c.DataVersion.Counter++
	case 6:
		c.TopicConfigs = append(c.TopicConfigs, state.TopicConfig{TopicName: pick(rng, rndTopics), Perm: 6})
	case 7:
		c.BrokerID = int64(rng.Intn(3))
	case 8:
		c.HasFilterServerList = false
	}
	return c
}

// echo rebuilds the registration the broker behind r last sent, as closely
// as the state allows (its topics as QueueData of its group).
func (h *harness) echo(r state.BrokerRegistration) *state.RegisterBroker {
	h.f.mu.RLock()
	defer h.f.mu.RUnlock()
	s := h.f.st
	group, hasGroup := s.ClusterInfo().BrokerAddrTable[r.BrokerName]
	c := &state.RegisterBroker{ClusterName: r.Key.Cluster, BrokerAddr: r.Key.Addr, BrokerName: r.BrokerName,
		BrokerID: r.BrokerID, HaServerAddr: r.HaServerAddr, HeartbeatTimeoutMillis: r.HeartbeatTimeoutMillis,
		DataVersion: r.DataVersion, HasEnableActingMaster: true, StampMillis: int64(h.index + 1)}
	if hasGroup {
		c.EnableActingMaster, c.ZoneName = group.EnableActingMaster, group.ZoneName
	}
	if l, ok := s.FilterServers(r.Key); ok {
		c.HasFilterServerList, c.FilterServerList = true, l
	}
	for _, topic := range s.AllTopics().Topics {
		if qd, ok := s.Queue(topic, r.BrokerName); ok {
			c.TopicConfigs = append(c.TopicConfigs, state.TopicConfig{TopicName: topic, ReadQueueNums: qd.ReadQueueNums,
				WriteQueueNums: qd.WriteQueueNums, Perm: qd.Perm, TopicSysFlag: qd.TopicSysFlag})
		}
	}
	return c
}

// expireRandom expires a current registration with its real epoch.
func (h *harness) expireRandom(rng *rand.Rand) {
	if regs := h.f.Registrations(); len(regs) > 0 {
		r := pick(rng, regs)
		h.apply(ExpireBrokersType, &state.ExpireBrokers{Reason: "timeout", Brokers: []state.ExpiredBroker{{Key: r.Key, RegEpoch: r.RegEpoch}}})
	}
}

// TestFSM_NewLiveEntryImpliesAChange: the shortcut WouldChange takes before
// planning must never answer "changes" for a registration that changes
// nothing when applied (a stale one, or a heartbeat), and it must be the
// answer for most changing registrations, or it saves nothing.
func TestFSM_NewLiveEntryImpliesAChange(t *testing.T) {
	rng := rand.New(rand.NewSource(20261201))
	var quick, planned int
	for round := 0; round < 100; round++ {
		h := newHarness(t)
		h.f.logger = hclog.NewNullLogger()
		for i := rng.Intn(60); i > 0; i-- {
			h.apply(randomCommand(rng, h.index+1))
		}
		for i := 0; i < 30; i++ {
			c := h.candidate(rng)
			short := read(h.f, func(s *state.State) bool { return s.NewLiveEntry(c) })
			before := h.contentDigest()
			h.register(c)
			changes := h.contentDigest() != before
			if short && !changes {
				t.Fatalf("round %d: shortcut says the registration changes the state, applying it did not: %+v", round, c)
			}
			if changes {
				planned++
				if short {
					quick++
				}
			}
		}
	}
	t.Logf("%d of %d changing registrations recognised without a plan", quick, planned)
	if quick < planned/3 || quick == planned {
		t.Fatalf("shortcut took %d of %d changing registrations; want many but not all (the plan must be exercised too)", quick, planned)
	}
}
