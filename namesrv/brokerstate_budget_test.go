package namesrv

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/protocol/remoting"
)

var splitKey = state.BrokerKey{Cluster: "c1", Addr: "10.0.0.1:10911"}

// newBudgetedSplitServer is newSplitServer, deleting, with a request
// budget of limit bytes.
func newBudgetedSplitServer(t *testing.T, limit int64) (*Server, *countingCluster, *membudget.Budget) {
	cc := &countingCluster{benchCluster: &benchCluster{f: fsm.New(hclog.NewNullLogger())}, registered: map[state.BrokerKey]bool{}}
	cfg := DefaultConfig()
	cfg.Settings = NewSettings(map[string]string{PropDeleteTopicWithBrokerRegistration: "true"}, nil, "dataDir")
	cfg.Remoting.Budget = membudget.New(limit)
	return New(cfg, cc), cc, cfg.Remoting.Budget
}

// openRound teaches the tracker that the broker splits (two whole rounds)
// and leaves a third round open: its first two parts, not its last.
func openRound(b *splitBroker) {
	b.round(nil)
	b.round(nil)
	b.version.Counter++
	b.part(b.topics[:b.size])
	b.part(b.topics[b.size : 2*b.size])
}

// held is what the open round of splitKey holds.
func (s *Server) roundHeld() (int64, int) {
	s.rounds.mu.Lock()
	defer s.rounds.mu.Unlock()
	if r := s.rounds.m[splitKey]; r != nil {
		return r.held, len(r.topics)
	}
	return 0, 0
}

func TestBrokerState_ChargedToTheBudgetAndFreedWhenTheBrokerUnregisters(t *testing.T) {
	s, cc, budget := newBudgetedSplitServer(t, 256<<20)
	openRound(newSplitBroker(t, s, cc, 2500, 800))
	held, topics := s.roundHeld()
	if topics != 1600 || held < int64(topics)*int64(len("T00000")) || budget.InUse() <= held {
		t.Fatalf("open round gathers %d topics charged %d bytes; the budget holds %d (the cache's entries on top)", topics, held, budget.InUse())
	}
	req := &remoting.Command{Code: remoting.UnregisterBroker, Language: "JAVA", Version: 479,
		ExtFields: map[string]string{"brokerName": "broker-a", "brokerAddr": splitKey.Addr, "clusterName": splitKey.Cluster, "brokerId": "0"}}
	if resp := s.ServeRemoting(context.Background(), &remoting.Conn{}, req); resp.Code != remoting.Success {
		t.Fatalf("unregister: %d %s", resp.Code, resp.Remark)
	}
	if budget.InUse() != 0 || len(s.rounds.m) != 0 || s.regCache.n != 0 {
		t.Fatalf("after the broker unregistered: %d bytes held, %d rounds, %d cache entries", budget.InUse(), len(s.rounds.m), s.regCache.n)
	}
}

func TestBrokerState_FreedWhenTheBrokerExpires(t *testing.T) {
	s, cc, budget := newBudgetedSplitServer(t, 256<<20)
	openRound(newSplitBroker(t, s, cc, 2500, 800))
	reg, ok := cc.f.Registration(splitKey)
	if !ok || budget.InUse() == 0 {
		t.Fatalf("registered %v, %d bytes held", ok, budget.InUse())
	}
	// The leader expires the broker; this member only applies the entry.
	expire := &state.ExpireBrokers{Brokers: []state.ExpiredBroker{{Key: splitKey, RegEpoch: reg.RegEpoch}}, Reason: "timeout"}
	if _, err := cc.Apply(context.Background(), fsm.ExpireBrokersType, expire); err != nil {
		t.Fatal(err)
	}
	if _, ok := cc.f.Registration(splitKey); ok {
		t.Fatal("the broker did not expire")
	}
	s.sweepOnce()
	if budget.InUse() != 0 || len(s.rounds.m) != 0 || s.regCache.n != 0 {
		t.Fatalf("after the broker expired: %d bytes held, %d rounds, %d cache entries", budget.InUse(), len(s.rounds.m), s.regCache.n)
	}
}

func TestBrokerState_AnUnfinishedRoundGivesUpItsTopicsAfterItsTimeBound(t *testing.T) {
	s, cc, budget := newBudgetedSplitServer(t, 256<<20)
	openRound(newSplitBroker(t, s, cc, 2500, 800))
	before := budget.InUse()
	s.sweepOnce()
	if held, _ := s.roundHeld(); held == 0 || budget.InUse() != before {
		t.Fatal("a fresh round was swept")
	}
	s.rounds.now = func() time.Time { return time.Now().Add(roundMaxAge + time.Second) }
	s.sweepOnce()
	if held, topics := s.roundHeld(); held != 0 || topics != 0 || budget.InUse() >= before {
		t.Fatalf("after the time bound: the round holds %d topics, %d bytes; budget %d of %d before", topics, held, budget.InUse(), before)
	}
}

func TestBrokerState_ABudgetTooSmallKeepsNoGatheredTopics(t *testing.T) {
	const limit = 32 << 10
	s, cc, budget := newBudgetedSplitServer(t, limit)
	b := newSplitBroker(t, s, cc, 2500, 800)
	openRound(b)
	if held, topics := s.roundHeld(); held != 0 || topics != 0 || budget.InUse() > limit {
		t.Fatalf("round holds %d topics, %d bytes; budget %d of %d", topics, held, budget.InUse(), limit)
	}
	if got := b.routed(); got != 2500 {
		t.Fatalf("%d of 2500 topics routed: registrations must still apply", got)
	}
}
