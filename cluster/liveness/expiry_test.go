package liveness

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// expiryBench is an expirer over a leader's lessor whose brokers b0..bN-1
// were all heard at promotion, with proposals recorded instead of applied.
type expiryBench struct {
	l        *Lessor
	clk      *fakeClock
	e        *Expirer
	regs     []state.BrokerRegistration
	proposed [][]state.ExpiredBroker
	inOffice bool
	verify   error
	expired  atomic.Uint64
}

func newExpiryBench(brokers int) *expiryBench {
	b := &expiryBench{inOffice: true}
	for i := range brokers {
		b.regs = append(b.regs, reg(fmt.Sprintf("b%d", i), uint64(i+1), 0))
	}
	b.l, b.clk = testLessor(b.regs...)
	b.e = NewExpirer(b.l, ExpiryConfig{ExpiryBatchMax: 2, MassExpiryFraction: 0.3, ApplyTimeout: time.Second,
		Logger: hclog.NewNullLogger(), VerifyLeader: func() error { return b.verify },
		InOffice: func() bool { return b.inOffice }, Expired: &b.expired,
		Propose: func(_ context.Context, t fsm.CommandType, cmd any) (any, error) {
			if t != fsm.ExpireBrokersType {
				return nil, fmt.Errorf("proposed %s", t)
			}
			b.proposed = append(b.proposed, cmd.(*state.ExpireBrokers).Brokers)
			return nil, nil
		}})
	b.l.Promote(1)
	return b
}

// silence lets every broker but the first keep heard go silent past its TTL.
func (b *expiryBench) silence(keep int) {
	b.clk.advance(6 * time.Second)
	for _, r := range b.regs[:keep] {
		b.l.Heard(r.Key, ConnNone)
	}
	b.clk.advance(4*time.Second + time.Millisecond)
}

func TestExpirer_ProposesDueBrokersInBatches(t *testing.T) {
	b := newExpiryBench(10)
	b.silence(7) // 3 of 10 silent: under the mass-expiry fraction
	b.e.Scan()
	if len(b.proposed) != 2 || len(b.proposed[0]) != 2 || len(b.proposed[1]) != 1 {
		t.Fatalf("proposed %v, want the 3 silent brokers in batches of 2", b.proposed)
	}
	if got := b.proposed[0][0]; got.Key != b.regs[7].Key || got.RegEpoch != 8 {
		t.Fatalf("first expiry %+v, want b7 at its registration epoch", got)
	}
	if b.expired.Load() != 3 {
		t.Fatalf("counted %d expiries, want 3", b.expired.Load())
	}
}

func TestExpirer_MassExpiryIsCappedToOneBatchPerScan(t *testing.T) {
	b := newExpiryBench(10)
	b.silence(0)
	b.e.Scan()
	if len(b.proposed) != 1 || len(b.proposed[0]) != 2 {
		t.Fatalf("proposed %v, want one batch of 2 when every broker went silent at once", b.proposed)
	}
}

func TestExpirer_ProposesNothingOutOfOfficeOrUnverified(t *testing.T) {
	for name, tune := range map[string]func(*expiryBench){
		"not in office":       func(b *expiryBench) { b.inOffice = false },
		"leadership unproven": func(b *expiryBench) { b.verify = errors.New("lost quorum") },
		"demoted":             func(b *expiryBench) { b.l.Demote() },
	} {
		t.Run(name, func(t *testing.T) {
			b := newExpiryBench(10)
			b.silence(7)
			tune(b)
			b.e.Scan()
			if len(b.proposed) != 0 {
				t.Fatalf("proposed %v", b.proposed)
			}
		})
	}
	t.Run("another term", func(t *testing.T) {
		b := newExpiryBench(10)
		b.silence(7)
		due, _ := b.l.due(b.clk.now())
		b.l.Promote(2) // the term changed between the scan's read and its proposal
		b.e.expire(due.epoch, due.timedOut, "timeout", false)
		if len(b.proposed) != 0 {
			t.Fatalf("proposed %v for a term that ended", b.proposed)
		}
	})
}

// The close of a broker's last connection on the leader, or in a batch
// the leader takes, asks for a scan once the grace has passed and tells
// ConnClosed; a follower's own close does neither, though a batch that
// reports recent closes still tells ConnClosed.
func TestLessor_ClosesAskForAScanAfterTheGrace(t *testing.T) {
	a := reg("a", 1, 0)
	var told atomic.Int32
	l := New(Config{Self: "n1", BrokerExpiry: 10 * time.Second, ConnCloseGrace: 20 * time.Millisecond,
		HeartbeatBatchInterval: time.Second, ControllerHeartbeatTimeout: 10 * time.Second,
		Registrations: func() []state.BrokerRegistration { return []state.BrokerRegistration{a} },
		ConnClosed:    func() { told.Add(1) }})
	scans := NewExpirer(l, ExpiryConfig{}).ScanRequests()
	l.Heard(a.Key, ConnOpened)
	l.Heard(a.Key, ConnClosed)
	l.Receive(&Batch{From: "n2", Closed: []state.BrokerKey{a.Key}})
	if told.Load() != 0 {
		t.Fatal("a follower told of a close it does not decide on")
	}
	l.Receive(&Batch{From: "n2", RecentlyClosed: []state.BrokerKey{a.Key}})
	if told.Load() != 1 {
		t.Fatalf("told %d times of a batch with recent closes, want once", told.Load())
	}
	l.Promote(1)
	for i, close := range []func(){
		func() { l.Heard(a.Key, ConnOpened); l.Heard(a.Key, ConnClosed) },
		func() { l.Receive(&Batch{From: "n2", Closed: []state.BrokerKey{a.Key}}) },
	} {
		start := time.Now()
		close()
		select {
		case <-scans:
		case <-time.After(10 * time.Second):
			t.Fatalf("close %d: no scan asked for", i)
		}
		if waited := time.Since(start); waited < 20*time.Millisecond {
			t.Fatalf("close %d: scan asked for after %v, within the grace", i, waited)
		}
		if got := told.Load(); got != int32(2+i) {
			t.Fatalf("close %d: told %d times, want %d", i, got, 2+i)
		}
	}
}

// Closes that come together, as in a restart storm, share the scans they
// ask for: one per scanSlack at most, each after the grace of every close
// it serves.
func TestLessor_ClosesTogetherShareAScan(t *testing.T) {
	keys := make([]state.BrokerKey, 200)
	regs := make([]state.BrokerRegistration, len(keys))
	for i := range keys {
		regs[i] = reg(fmt.Sprintf("b%d", i), uint64(i+1), 0)
		keys[i] = regs[i].Key
	}
	l := New(Config{Self: "n1", BrokerExpiry: 10 * time.Second, ConnCloseGrace: 20 * time.Millisecond,
		HeartbeatBatchInterval: time.Second, ControllerHeartbeatTimeout: 10 * time.Second,
		Registrations: func() []state.BrokerRegistration { return regs }})
	scans := NewExpirer(l, ExpiryConfig{}).ScanRequests()
	l.Promote(1)
	start := time.Now()
	for _, k := range keys {
		l.Heard(k, ConnOpened)
		l.Heard(k, ConnClosed)
		l.Receive(&Batch{From: "n2", Closed: []state.BrokerKey{k}})
	}
	elapsed := time.Since(start)
	select {
	case <-scans:
	case <-time.After(10 * time.Second):
		t.Fatal("no scan asked for")
	}
	if waited := time.Since(start); waited < 20*time.Millisecond {
		t.Fatalf("scan asked for after %v, within the grace", waited)
	}
	l.mu.Lock()
	armed := l.scansArmed
	l.mu.Unlock()
	if most := 1 + int(elapsed/scanSlack); armed > most {
		t.Fatalf("%d closes in %v armed %d scans, want at most %d", 2*len(keys), elapsed, armed, most)
	}
}
