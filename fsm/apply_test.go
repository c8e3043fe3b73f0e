package fsm

import (
	"errors"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/feature"
)

func TestFSM_Apply_UnknownOrUndecodableEntryHaltsWithoutPanic(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"unknown type", []byte{120, 0x80}, "command type 120) is unknown to this member's release " + buildinfo.Release},
		{"empty entry", nil, "entry 5"},
		{"undecodable payload", []byte{byte(PutKVType), 0xC1}, "type 8"},
		{"undecodable flagged payload", []byte{byte(PutKVType | IgnoreUnknownTypeFlag), 0xC1}, "type 136"},
		{"truncated versioned entry", []byte{byte(versionedType), 9, '1'}, "truncated versioned entry"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := New(testLogger(t))
			var got []error
			f.OnHalt(func(err error) { got = append(got, err) })
			f.Apply(makeLog(t, 4, PutKVType, &state.PutKV{Namespace: "n", Key: "before", Value: "v", HasValue: true}))
			res := f.Apply(Entry{Index: 5, Command: true, Data: tc.data})
			later := f.Apply(makeLog(t, 6, PutKVType, &state.PutKV{Namespace: "n", Key: "after", Value: "v", HasValue: true}))
			if res != ErrHalted || later != ErrHalted || len(got) != 1 || f.Halted() == nil {
				t.Fatalf("answers %v, %v; hook calls %v: want ErrHalted twice and one call", res, later, got)
			}
			if msg := got[0].Error(); !strings.Contains(msg, tc.want) || !strings.Contains(msg, "entry 5") {
				t.Fatalf("halt error %q does not name %q and the index", msg, tc.want)
			}
			if _, ok := f.KV("n", "after"); ok || f.AppliedIndex() != 4 {
				t.Fatalf("applied index %d after halting at 5; a later entry must not apply", f.AppliedIndex())
			}
			if _, err := f.Snapshot(); !errors.Is(err, ErrHalted) {
				t.Fatalf("a halted FSM took a snapshot: %v", err)
			}
		})
	}
}

// An entry of a command a newer release added, in the versioned envelope
// that release writes, halts naming both releases.
func TestFSM_Apply_EntryOfANewerReleaseNamesBothReleases(t *testing.T) {
	f := New(testLogger(t))
	var got error
	f.OnHalt(func(err error) { got = err })
	newer := feature.Feature{Name: "from-the-future", Since: buildinfo.MustParse("9.1.0")}
	entry, err := WithRequestID(state.RequestID{Session: "s", Seq: 1, Floor: 1}, wrapVersioned(newer, []byte{99, 0x80}))
	if err != nil {
		t.Fatal(err)
	}
	f.Apply(Entry{Index: 7, Command: true, Data: entry})
	if !errors.Is(got, feature.ErrTooNew) {
		t.Fatalf("halt error %v, want a TooNewError", got)
	}
	for _, want := range []string{"log entry 7 (command type 99)", "release " + buildinfo.Release, "release 9.1.0 or newer"} {
		if !strings.Contains(got.Error(), want) {
			t.Fatalf("%q lacks %q", got, want)
		}
	}
}

func TestFSM_Apply_IgnoreFlag(t *testing.T) {
	f := New(testLogger(t))
	res := f.Apply(Entry{Index: 1, Command: true, Data: []byte{120 | byte(IgnoreUnknownTypeFlag), 0x80}})
	if res != nil || f.AppliedIndex() != 1 || f.Generation() != 0 {
		t.Fatalf("skipped entry: result %v, applied %d, generation %d", res, f.AppliedIndex(), f.Generation())
	}
	// A known type with the flag is applied normally.
	f.Apply(makeLog(t, 2, PutKVType|IgnoreUnknownTypeFlag, &state.PutKV{Namespace: "n", Key: "k", Value: "v", HasValue: true}))
	if v, ok := f.KV("n", "k"); !ok || v != "v" {
		t.Fatalf("flagged known command not applied: %q, %v", v, ok)
	}
}

func TestFSM_ApplyBatch_NonCommandEntriesAdvanceIndex(t *testing.T) {
	f := New(testLogger(t))
	logs := []Entry{
		makeLog(t, 1, PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: "v", HasValue: true}),
		{Index: 2, Data: []byte("not a command")},
		{Index: 3},
		makeLog(t, 4, WipeWritePermType, &state.WipeWritePerm{BrokerName: "x"}),
		{Index: 5},
	}
	out := f.ApplyBatch(logs)
	want := []any{nil, nil, nil, state.WritePermResult{}, nil}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("results = %#v, want %#v", out, want)
	}
	if f.AppliedIndex() != 5 || f.LastChangeIndex() != 1 {
		t.Fatalf("applied %d, last change %d; want 5 and 1", f.AppliedIndex(), f.LastChangeIndex())
	}
}

// randomLog builds n commands over a small universe, so they collide.
func randomLog(t testing.TB, rng *rand.Rand, n int) []Entry {
	logs := make([]Entry, 0, n)
	for i := 1; i <= n; i++ {
		typ, cmd := randomCommand(rng, uint64(i))
		logs = append(logs, makeLog(t, uint64(i), typ, cmd))
	}
	return logs
}

func TestFSM_ApplyBatch_EqualsSequentialApply(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	logs := randomLog(t, rng, 400)
	seq, batch := New(testLogger(t)), New(testLogger(t))
	var seqOut []any
	for _, l := range logs {
		seqOut = append(seqOut, seq.Apply(l))
	}
	var batchOut []any
	for start := 0; start < len(logs); {
		end := min(len(logs), start+1+rng.Intn(40))
		batchOut = append(batchOut, batch.ApplyBatch(logs[start:end])...)
		start = end
	}
	if !reflect.DeepEqual(seqOut, batchOut) {
		t.Fatal("batch results differ from sequential results")
	}
	if seq.Digest() != batch.Digest() || seq.AppliedIndex() != batch.AppliedIndex() {
		t.Fatal("batch state differs from sequential state")
	}
}

func TestFSM_Apply_Deterministic(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		logs := randomLog(t, rand.New(rand.NewSource(seed)), 300)
		a, b := New(nil), New(nil)
		for _, l := range logs {
			ra, rb := a.Apply(l), b.Apply(l)
			if !reflect.DeepEqual(ra, rb) {
				t.Fatalf("seed %d index %d: results differ: %+v vs %+v", seed, l.Index, ra, rb)
			}
		}
		if a.Digest() != b.Digest() {
			t.Fatalf("seed %d: replicas diverged", seed)
		}
		if !reflect.DeepEqual(a.ClusterInfo(), b.ClusterInfo()) || !reflect.DeepEqual(a.SystemTopics(), b.SystemTopics()) {
			t.Fatalf("seed %d: reads differ", seed)
		}
	}
}

func TestFSM_Generation_BumpsOnObservableChange(t *testing.T) {
	h := newHarness(t)
	steps := []struct {
		name string
		typ  CommandType
		cmd  any
		bump bool
	}{
		{"register", RegisterBrokerType, reg(brokerA, 0, masterAddr, 1, "T"), true},
		{"identical registration restamps the epoch", RegisterBrokerType, reg(brokerA, 0, masterAddr, 1, "T"), true},
		{"wipe", WipeWritePermType, &state.WipeWritePerm{BrokerName: brokerA}, true},
		{"wipe again", WipeWritePermType, &state.WipeWritePerm{BrokerName: brokerA}, false},
		{"kv", PutKVType, &state.PutKV{Namespace: state.NamespaceOrderTopicConfig, Key: "T", Value: "x", HasValue: true}, true},
		{"delete missing topic", DeleteTopicType, &state.DeleteTopic{Topic: "nope"}, false},
		{"delete topic", DeleteTopicType, &state.DeleteTopic{Topic: "T"}, true},
	}
	for _, st := range steps {
		gen := h.f.Generation()
		h.apply(st.typ, st.cmd)
		if bumped := h.f.Generation() != gen; bumped != st.bump {
			t.Fatalf("%s: generation bumped = %v, want %v", st.name, bumped, st.bump)
		}
	}
}

// appliedSeen records, as each change is applied, the applied index and
// the generation a concurrent reader could see at that moment.
type appliedSeen struct {
	f     *FSM
	index []uint64
	gen   []uint64
}

func (a *appliedSeen) Changed(uint64, any, bool) {
	a.index = append(a.index, a.f.AppliedIndex())
	a.gen = append(a.gen, a.f.Generation())
}

// Each entry of a batch is applied on its own: while an entry is applied,
// the entries before it are already visible (their index applied, their
// generation moved), so a reader waits for one entry, not the whole batch,
// and the applied index always names the state a reader sees.
func TestFSM_ApplyBatch_PublishesEachEntryBeforeTheNext(t *testing.T) {
	f := New(testLogger(t))
	seen := &appliedSeen{f: f}
	f.SetChangeObserver(seen)
	f.ApplyBatch([]Entry{putAt(t, 1), {Index: 2}, putAt(t, 3), putAt(t, 4)})
	if want := []uint64{0, 2, 3}; !reflect.DeepEqual(seen.index, want) {
		t.Fatalf("applied index while applying entries 1, 3, 4 = %v, want %v", seen.index, want)
	}
	if seen.gen[1] == seen.gen[0] || seen.gen[2] == seen.gen[1] {
		t.Fatalf("generations while applying entries 1, 3, 4 = %v: each must have moved past the entry before", seen.gen)
	}
	if f.AppliedIndex() != 4 {
		t.Fatalf("applied index after the batch = %d, want 4", f.AppliedIndex())
	}
}
