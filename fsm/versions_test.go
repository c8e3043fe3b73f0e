package fsm

import (
	"fmt"
	"runtime"
	"testing"
	"weak"

	"github.com/raftns/raftns/fsm/state"
)

// TestSnapshot_OldStateVersionsAreCollected churns broker names through an
// FSM that takes a snapshot between every two writes, as a member under
// registration churn does, while some tables never change. Every snapshot
// starts a new state version; once the snapshot is released, no version but
// the current one may stay reachable, however long the unchanged tables
// live. Otherwise memory grows by a copy of the top-level tables per
// snapshot. Every version here was frozen and then succeeded by a write, so
// none is current.
func TestSnapshot_OldStateVersionsAreCollected(t *testing.T) {
	h := &harness{t: t, f: New(nil)}
	// Tables no later write touches, made by different versions: broker
	// groups with their topics, and a KV namespace.
	steady := func(i int) {
		name := fmt.Sprintf("steady-%d", i)
		h.register(reg(name, 0, fmt.Sprintf("10.8.0.%d:10911", i+1), 1, "T-"+name))
	}
	h.apply(PutKVType, &state.PutKV{Namespace: "steady", Key: "k", Value: "v", HasValue: true})
	const churned = 10000
	var versions []weak.Pointer[state.State]
	for i := range churned {
		if i%1000 == 0 {
			steady(i / 1000)
		}
		versions = append(versions, weak.Make(h.f.st))
		snap, err := h.f.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		snap.Release()
		addr := fmt.Sprintf("10.9.%d.%d:10911", i/250, i%250)
		name := fmt.Sprintf("churn-%d", i)
		h.register(reg(name, 0, addr, 1, "T-"+name))
		h.unregister(cluster, addr, name, 0)
	}
	runtime.GC()
	alive := 0
	for _, v := range versions {
		if v.Value() != nil {
			alive++
		}
	}
	if alive > 0 {
		t.Errorf("%d of %d released state versions are still reachable, want none", alive, len(versions))
	}
	if got := len(h.f.ClusterInfo().BrokerAddrTable); got != churned/1000 {
		t.Errorf("%d broker groups after the churn, want %d", got, churned/1000)
	}
}
