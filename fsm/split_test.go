package fsm

import (
	"fmt"
	"github.com/raftns/raftns/fsm/state"
	"math/rand/v2"
	"testing"
)

// randomTopics makes topic names that compress poorly, like real ones.
func randomTopics(rng *rand.Rand, n int, perm int32) []state.TopicConfig {
	out := make([]state.TopicConfig, n)
	for i := range out {
		out[i] = state.TopicConfig{TopicName: fmt.Sprintf("t-%016x%016x", rng.Uint64(), rng.Uint64()), ReadQueueNums: 8, WriteQueueNums: 8, Perm: perm}
	}
	return out
}

func applyEntries(t *testing.T, f *FSM, first uint64, entries [][]byte) uint64 {
	t.Helper()
	for _, e := range entries {
		f.Apply(Entry{Index: first, Command: true, Data: e})
		first++
	}
	return first
}

func TestSplitRegistration_PartsEqualTheWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cmd := &state.RegisterBroker{ClusterName: "c", BrokerName: "b", BrokerAddr: "10.0.0.1:10911", HasFilterServerList: true,
		DataVersion: state.DataVersion{Timestamp: 1, Counter: 1}, TopicConfigs: randomTopics(rng, 40000, 6)}
	whole, err := Encode(RegisterBrokerType, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole) <= MaxEntrySize {
		t.Fatalf("test registration of %d bytes is not large enough to split", len(whole))
	}
	parts, err := SplitRegistration(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) < 2 {
		t.Fatalf("%d parts, want a split", len(parts))
	}
	for i, p := range parts {
		if len(p) > MaxEntrySize {
			t.Fatalf("part %d has %d bytes, above %d", i, len(p), MaxEntrySize)
		}
	}
	// A new DataVersion that changes every topic's permission: the parts
	// must update topics in every part, not only the first.
	update := *cmd
	update.DataVersion.Counter = 2
	update.TopicConfigs = append([]state.TopicConfig(nil), cmd.TopicConfigs...)
	for i := range update.TopicConfigs {
		update.TopicConfigs[i].Perm = 4
	}
	updParts, err := SplitRegistration(&update)
	if err != nil {
		t.Fatal(err)
	}
	split, single := New(nil), New(nil)
	next := applyEntries(t, split, 1, parts)
	applyEntries(t, split, next, updParts)
	single.Apply(Entry{Index: 1, Command: true, Data: whole})
	updWhole, _ := Encode(RegisterBrokerType, &update)
	single.Apply(Entry{Index: next, Command: true, Data: updWhole})
	if split.st.Digest(true, false) != single.st.Digest(true, false) {
		t.Fatal("applying the parts differs from applying the whole registration")
	}
	if r, ok := split.Route(update.TopicConfigs[len(update.TopicConfigs)-1].TopicName, false); !ok || r.QueueDatas[0].Perm != 4 {
		t.Fatalf("last part's topic = %+v %v, want perm 4", r, ok)
	}
	if split.WouldChange(&update) {
		t.Fatal("the whole registration still counts as a change after its parts were applied")
	}
}

func TestSplitRegistration_SmallIsOneEntry(t *testing.T) {
	cmd := &state.RegisterBroker{ClusterName: "c", BrokerName: "b", BrokerAddr: "a:1", TopicConfigs: randomTopics(rand.New(rand.NewPCG(3, 4)), 100, 6)}
	parts, err := SplitRegistration(cmd)
	if err != nil || len(parts) != 1 {
		t.Fatalf("parts = %d, %v; want one", len(parts), err)
	}
}
