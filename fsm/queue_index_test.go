package fsm

import (
	"bytes"
	"io"
	"math/rand"
	"reflect"
	"testing"
)

// derivedIndex is byBroker as it must be: built from the route table.
func derivedIndex(s *state) map[string]map[string]struct{} {
	out := map[string]map[string]struct{}{}
	for topic, t := range s.topics {
		for name := range t.m {
			if out[name] == nil {
				out[name] = map[string]struct{}{}
			}
			out[name][topic] = struct{}{}
		}
	}
	return out
}

func indexOf(s *state) map[string]map[string]struct{} {
	out := map[string]map[string]struct{}{}
	for name, set := range s.byBroker {
		out[name] = set.m
	}
	return out
}

func checkIndex(t *testing.T, what string, s *state) {
	t.Helper()
	if got, want := indexOf(s), derivedIndex(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: index %v, route table says %v", what, got, want)
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
		var frozenIndex []map[string]map[string]struct{}
		for i := range 600 {
			typ, cmd := randomCommand(rng, uint64(i+1))
			if reg, ok := cmd.(*RegisterBroker); ok && rng.Intn(3) == 0 {
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
				frozenIndex = append(frozenIndex, deepCopyIndex(indexOf(snap.st)))
			}
		}
		// Writes after a snapshot never reach the frozen state's index.
		for i, snap := range frozen {
			if !reflect.DeepEqual(indexOf(snap.st), frozenIndex[i]) {
				t.Fatalf("seed %d: frozen snapshot %d's index changed after it was taken", seed, i)
			}
			checkIndex(t, "frozen", snap.st)
		}
		var buf bytes.Buffer
		if err := frozen[len(frozen)-1].writeTo(&buf); err != nil {
			t.Fatal(err)
		}
		restored := New(nil)
		if err := restored.Restore(io.NopCloser(&buf)); err != nil {
			t.Fatal(err)
		}
		checkIndex(t, "restored", restored.st)
	}
}

func deepCopyIndex(ix map[string]map[string]struct{}) map[string]map[string]struct{} {
	out := map[string]map[string]struct{}{}
	for name, set := range ix {
		out[name] = map[string]struct{}{}
		for topic := range set {
			out[name][topic] = struct{}{}
		}
	}
	return out
}
