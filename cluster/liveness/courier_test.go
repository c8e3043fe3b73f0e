package liveness

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm/state"
)

// A batch the leader did not take is sent again, with what was heard
// meanwhile, to the leader there is then.
func TestCourier_RetriesAnUndeliveredBatch(t *testing.T) {
	a, b := reg("a", 1, 0), reg("b", 2, 0)
	l := New(Config{Self: "n2", BrokerExpiry: 10 * time.Second, ConnCloseGrace: time.Second,
		HeartbeatBatchInterval: 20 * time.Millisecond, ControllerHeartbeatTimeout: 10 * time.Second,
		Registrations: func() []state.BrokerRegistration { return []state.BrokerRegistration{a, b} }})
	type delivery struct {
		addr  string
		batch *Batch
	}
	tries := make(chan delivery, 100)
	refuse := make(chan bool, 1)
	refuse <- true
	c := &Courier{Lessor: l, Logger: hclog.NewNullLogger(),
		Leader: func() string { return "leader:1" },
		Deliver: func(_ context.Context, addr string, batch *Batch) error {
			tries <- delivery{addr, batch}
			select {
			case <-refuse:
				l.Heard(b.Key, ConnNone) // heard while the first batch was out
				return errors.New("not the leader")
			default:
				return nil
			}
		}}
	l.Heard(a.Key, ConnNone)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); c.Run(stop) }()
	defer func() { close(stop); <-done }()
	first := <-tries
	if first.addr != "leader:1" || len(first.batch.Touched) != 1 || first.batch.Touched[0] != a.Key {
		t.Fatalf("first delivery %s %+v, want a touched", first.addr, first.batch)
	}
	second := <-tries
	if got := second.batch.Touched; len(got) != 2 || got[0] != a.Key || got[1] != b.Key {
		t.Fatalf("second delivery touched %v, want the refused a and the later b", got)
	}
}
