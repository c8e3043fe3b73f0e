package fsm

import (
	"bytes"
	"io"
	"math/rand"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

func checkIndex(t *testing.T, what string, s *state.State) {
	t.Helper()
	if err := s.CheckQueueIndex(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// Random commands (registrations, some dropping the topics they do not list,
// unregistrations, expiries, topic deletes and registers, write permission)
// keep the index equal to the route table, across snapshots that freeze
// the state and restores that rebuild it.
func TestQueueIndex_FollowsTheRouteTable(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		rng := rand.New(rand.NewSource(seed))
		f := New(nil)
		var frozen []*Snapshot
		var frozenDigest [][32]byte
		for i := range 600 {
			typ, cmd := randomCommand(rng, uint64(i+1))
			if reg, ok := cmd.(*state.RegisterBroker); ok && rng.Intn(3) == 0 {
				reg.DeleteUnlistedTopics = true // drops the topics it does not list
			}
			f.Apply(makeLog(t, uint64(i+1), typ, cmd))
			checkIndex(t, "after an apply", f.st)
			if i%50 == 0 {
				snap, err := f.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				frozen = append(frozen, snap)
				frozenDigest = append(frozenDigest, snap.st.Digest(false, false))
			}
		}
		// Writes after a snapshot never reach the frozen state: its tables
		// are as they were, and its index still matches them.
		for i, snap := range frozen {
			if snap.st.Digest(false, false) != frozenDigest[i] {
				t.Fatalf("seed %d: frozen snapshot %d changed after it was taken", seed, i)
			}
			checkIndex(t, "frozen", snap.st)
		}
		var buf bytes.Buffer
		if err := frozen[len(frozen)-1].st.Write(&buf, frozen[len(frozen)-1].meta); err != nil {
			t.Fatal(err)
		}
		restored := New(nil)
		if err := restored.Restore(io.NopCloser(&buf)); err != nil {
			t.Fatal(err)
		}
		checkIndex(t, "restored", restored.st)
	}
}
