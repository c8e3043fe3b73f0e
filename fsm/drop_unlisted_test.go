package fsm

import (
	"fmt"
	"github.com/raftns/raftns/fsm/state"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// splitTable is a registration of broker b large enough to be split
// (40,000 topics), with deletion of unlisted topics on.
func splitTable(t *testing.T, seed uint64) *state.RegisterBroker {
	t.Helper()
	cmd := &state.RegisterBroker{ClusterName: "c", BrokerName: "b", BrokerAddr: "10.0.0.1:10911", HasFilterServerList: true,
		DataVersion: state.DataVersion{Timestamp: 1, Counter: 1}, TopicConfigs: randomTopics(rand.New(rand.NewPCG(seed, seed)), 40000, 6),
		DeleteUnlistedTopics: true}
	if whole, err := Encode(RegisterBrokerType, cmd); err != nil || len(whole) <= MaxEntrySize {
		t.Fatalf("test registration of %d bytes (%v) is not large enough to split", len(whole), err)
	}
	return cmd
}

// splitRegistered is an FSM in which splitTable(seed) was applied, the
// registration, and the next index.
func splitRegistered(t *testing.T, seed uint64) (*FSM, *state.RegisterBroker, uint64) {
	t.Helper()
	f, cmd := New(testLogger(t)), splitTable(t, seed)
	return f, cmd, applySplit(t, f, 1, cmd)
}

// mustSplit is SplitRegistration that fails the test on an error.
func mustSplit(t *testing.T, cmd *state.RegisterBroker) [][]byte {
	t.Helper()
	parts, err := SplitRegistration(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return parts
}

// applySplit applies cmd as the leader proposes it: its parts, then the
// topics the whole no longer lists, computed after the parts. It returns
// the next index.
func applySplit(t *testing.T, f *FSM, index uint64, cmd *state.RegisterBroker) uint64 {
	t.Helper()
	parts := mustSplit(t, cmd)
	if len(parts) < 2 {
		t.Fatalf("SplitRegistration = %d parts; want a split", len(parts))
	}
	for i, p := range parts {
		if _, c, err := Decode(p); err != nil || c.(*state.RegisterBroker).DeleteUnlistedTopics {
			t.Fatalf("part %d deletes unlisted topics (%v): no part lists the whole table", i, err)
		}
	}
	index = applyEntries(t, f, index, parts)
	if d := f.UnlistedTopics(cmd); d != nil {
		drops, err := SplitDrops(d)
		if err != nil {
			t.Fatal(err)
		}
		index = applyEntries(t, f, index, drops)
	}
	return index
}

// withoutTopics returns cmd under a new DataVersion without its topics
// from..to.
func withoutTopics(cmd *state.RegisterBroker, from, to int) (*state.RegisterBroker, []string) {
	next := *cmd
	next.DataVersion.Counter++
	next.TopicConfigs = slices.Concat(cmd.TopicConfigs[:from], cmd.TopicConfigs[to:])
	var gone []string
	for _, tc := range cmd.TopicConfigs[from:to] {
		gone = append(gone, tc.TopicName)
	}
	slices.Sort(gone)
	return &next, gone
}

func TestDropUnlistedTopics_SplitRegistrationDropsWhatTheWholeNoLongerLists(t *testing.T) {
	first := splitTable(t, 5)
	split, single := New(testLogger(t)), New(testLogger(t))
	// Another group serves two of the topics that will go: they stay, with
	// its queue data only.
	shared := []string{first.TopicConfigs[100].TopicName, first.TopicConfigs[150].TopicName}
	other := reg("other", state.MasterID, "10.0.0.2:10911", 1)
	other.TopicConfigs = []state.TopicConfig{topicConfig(shared[0], 6), topicConfig(shared[1], 6)}
	for _, f := range []*FSM{split, single} {
		f.Apply(makeLog(t, 1, RegisterBrokerType, other))
	}
	index := applySplit(t, split, 2, first)
	second, gone := withoutTopics(first, 100, 600)
	// The parts of the second round list none of the 500 topics, so they
	// take nothing away; the drops that follow do.
	index = applySplit(t, split, index, second)

	for _, topic := range gone {
		r, ok := split.Route(topic, false)
		switch {
		case slices.Contains(shared, topic):
			if !ok || len(r.QueueDatas) != 1 || r.QueueDatas[0].BrokerName != "other" {
				t.Fatalf("shared topic %s = %+v, %v; want only the other group's queue data", topic, r, ok)
			}
		case ok:
			t.Fatalf("topic %s, no longer listed, is still routed: %+v", topic, r)
		}
	}
	for _, tc := range second.TopicConfigs {
		if _, ok := split.Route(tc.TopicName, false); !ok {
			t.Fatalf("listed topic %s was dropped", tc.TopicName)
		}
	}
	if split.WouldChange(second) || split.UnlistedTopics(second) != nil {
		t.Fatal("the whole registration still counts as a change after its parts and drops were applied")
	}
	// The same as the whole applied as one entry.
	applyEntries(t, single, 2, [][]byte{mustEncode(t, RegisterBrokerType, first), mustEncode(t, RegisterBrokerType, second)})
	if split.st.Digest(true, false) != single.st.Digest(true, false) {
		t.Fatal("the parts and drops differ from the whole registration applied as one entry")
	}
	if index <= 2 {
		t.Fatal("nothing applied")
	}
}

func TestDropUnlistedTopics_ANewerRegistrationInBetweenWins(t *testing.T) {
	f, first, index := splitRegistered(t, 7)
	second, gone := withoutTopics(first, 0, 500)
	index = applyEntries(t, f, index, mustSplit(t, second))
	d := f.UnlistedTopics(second)
	if d == nil || !slices.Equal(d.Topics, gone) {
		t.Fatalf("unlisted = %v, want the %d topics the round left out", d, len(gone))
	}
	drops, err := SplitDrops(d)
	if err != nil {
		t.Fatal(err)
	}
	// The broker registers again, under a newer DataVersion, before the
	// drops apply: they are the older round's and change nothing.
	third := *second
	third.DataVersion.Counter++
	third.DeleteUnlistedTopics = false
	index = applyEntries(t, f, index, mustSplit(t, &third))
	gen := f.Generation()
	applyEntries(t, f, index, drops)
	if f.Generation() != gen {
		t.Fatal("drops of an older DataVersion changed the state")
	}
	if _, ok := f.Route(gone[0], false); !ok {
		t.Fatalf("topic %s dropped although a newer registration came in between", gone[0])
	}
	// Nor do they apply to a broker that is gone.
	f.Apply(makeLog(t, index+uint64(len(drops)), UnregisterBrokerType,
		&state.UnregisterBroker{ClusterName: "c", BrokerAddr: first.BrokerAddr, BrokerName: "b"}))
	d.DataVersion = third.DataVersion
	gen = f.Generation()
	f.Apply(makeLog(t, index+uint64(len(drops))+1, DropUnlistedTopicsType, d))
	if f.Generation() != gen {
		t.Fatal("drops for an unregistered broker changed the state")
	}
}

func TestDropUnlistedTopics_NothingToDrop(t *testing.T) {
	f, first, index := splitRegistered(t, 9)
	if d := f.UnlistedTopics(first); d != nil {
		t.Fatalf("a whole table that lists every topic drops %d", len(d.Topics))
	}
	empty := &state.DropUnlistedTopics{ClusterName: "c", BrokerAddr: first.BrokerAddr, BrokerName: "b", DataVersion: first.DataVersion}
	if entries, err := SplitDrops(empty); err != nil || len(entries) != 0 {
		t.Fatalf("SplitDrops(no topics) = %d entries, %v; want none", len(entries), err)
	}
	gen := f.Generation()
	empty.Topics = []string{"never-registered"}
	f.Apply(makeLog(t, index, DropUnlistedTopicsType, empty))
	if f.Generation() != gen {
		t.Fatal("dropping topics the broker does not serve changed the state")
	}
	// A slave deletes nothing: only the master writes queue data.
	slave := *first
	slave.BrokerID, slave.BrokerAddr, slave.TopicConfigs = 1, "10.0.0.3:10911", first.TopicConfigs[:10]
	if d := f.UnlistedTopics(&slave); d != nil {
		t.Fatalf("a slave's registration would drop %d topics", len(d.Topics))
	}
}

func TestSplitDrops_EntriesStayUnderTheLimit(t *testing.T) {
	topics := make([]string, 60000)
	for i := range topics {
		topics[i] = fmt.Sprintf("%s-%06d", strings.Repeat("x", 100), i)
	}
	d := &state.DropUnlistedTopics{ClusterName: "c", BrokerAddr: "a:1", BrokerName: "b", DataVersion: state.DataVersion{Counter: 1}, Topics: topics}
	entries, err := SplitDrops(d)
	if err != nil || len(entries) < 2 {
		t.Fatalf("SplitDrops = %d entries, %v; want several", len(entries), err)
	}
	checkDropEntries(t, d, entries)
}

// checkDropEntries checks that entries are each at most MaxEntrySize and
// together name d's topics in order under d's broker.
func checkDropEntries(t *testing.T, d *state.DropUnlistedTopics, entries [][]byte) {
	t.Helper()
	var got []string
	for i, e := range entries {
		if len(e) > MaxEntrySize {
			t.Fatalf("entry %d has %d bytes, above %d", i, len(e), MaxEntrySize)
		}
		typ, cmd, err := Decode(e)
		if err != nil || typ != DropUnlistedTopicsType {
			t.Fatalf("entry %d decodes to %v, %v", i, typ, err)
		}
		part := cmd.(*state.DropUnlistedTopics)
		if part.BrokerName != d.BrokerName || part.BrokerAddr != d.BrokerAddr || part.DataVersion != d.DataVersion {
			t.Fatalf("entry %d names %+v", i, part)
		}
		got = append(got, part.Topics...)
	}
	if !slices.Equal(got, d.Topics) {
		t.Fatalf("entries name %d topics, want the %d given", len(got), len(d.Topics))
	}
}

// FuzzSplitDrops: whatever the names, each entry stays under the limit,
// decodes, and the entries name the topics given.
func FuzzSplitDrops(f *testing.F) {
	f.Add("topic", 3, 1000)
	f.Add("", 0, 0)
	f.Add(strings.Repeat("é", 100), 300, 1999)
	f.Fuzz(func(t *testing.T, name string, width, count int) {
		if count = count % 2000; count < 0 {
			count = -count
		}
		width = width % 400
		topics := make([]string, count)
		for i := range topics {
			topics[i] = fmt.Sprintf("%s%0*d", name, max(width, 0), i)
		}
		d := &state.DropUnlistedTopics{ClusterName: name, BrokerAddr: "a:1", BrokerName: name, Topics: topics}
		entries, err := SplitDrops(d)
		if err != nil {
			t.Fatal(err)
		}
		checkDropEntries(t, d, entries)
	})
}
