package fsm

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/raftns/raftns/fsm/state"
	"io"
	"testing"
)

// identified builds the committed entry of cmd carrying id.
func identified(t testing.TB, index uint64, id state.RequestID, typ CommandType, cmd any) Entry {
	t.Helper()
	l := makeLog(t, index, typ, cmd)
	buf, err := WithRequestID(id, l.Data)
	if err != nil {
		t.Fatal(err)
	}
	l.Data = buf
	return l
}

func TestRequestID_RoundTripsAndDecodesToItsCommand(t *testing.T) {
	id := state.RequestID{Session: "n1/abc", Seq: 7, Floor: 5}
	for _, cmd := range []any{&state.PutKV{Namespace: "ns", Key: "k", Value: "v", HasValue: true},
		reg("b", 0, "10.0.0.1:10911", 1, bigTopics(3000)...)} { // the second is compressed
		typ := PutKVType
		if _, ok := cmd.(*state.RegisterBroker); ok {
			typ = RegisterBrokerType
		}
		l := identified(t, 1, id, typ, cmd)
		got, inner, ok, err := SplitRequestID(l.Data)
		if err != nil || !ok || got != id {
			t.Fatalf("SplitRequestID = %+v, ok %v, err %v", got, ok, err)
		}
		plain, _ := Encode(typ, cmd)
		if !bytes.Equal(inner, plain) {
			t.Fatal("inner entry differs from the command's own encoding")
		}
		if et, err := EntryType(l.Data); err != nil || et != typ {
			t.Fatalf("EntryType = %v, %v; want %v", et, err, typ)
		}
		if dt, _, err := Decode(l.Data); err != nil || dt != typ {
			t.Fatalf("Decode = %v, %v; want %v", dt, err, typ)
		}
	}
}

func bigTopics(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Topic-%05d", i)
	}
	return out
}

func TestRequestID_MalformedIsRefused(t *testing.T) {
	plain := makeLog(t, 1, DeleteKVType, &state.DeleteKV{Namespace: "ns", Key: "k"}).Data
	for name, id := range map[string]state.RequestID{
		"no session":       {Seq: 1, Floor: 1},
		"seq 0":            {Session: "s", Floor: 1},
		"floor above seq":  {Session: "s", Seq: 1, Floor: 2},
		"session too long": {Session: string(make([]byte, MaxSessionLen+1)), Seq: 1, Floor: 1},
	} {
		if _, err := WithRequestID(id, plain); err == nil {
			t.Errorf("%s: WithRequestID accepted %+v", name, id)
		}
	}
	good, _ := WithRequestID(state.RequestID{Session: "s", Seq: 1, Floor: 1}, plain)
	if _, err := WithRequestID(state.RequestID{Session: "s", Seq: 2, Floor: 1}, good); err == nil {
		t.Error("an identified entry was wrapped twice")
	}
	for name, buf := range map[string][]byte{
		"header only":   good[:len(good)-len(plain)],
		"truncated hdr": good[:3],
		"nested":        append([]byte{byte(requestType)}, good[1:len(good)-len(plain)]...),
	} {
		if name == "nested" {
			buf = append(buf, good...)
		}
		if _, _, err := Decode(buf); !errors.Is(err, ErrDecodeCommand) {
			t.Errorf("%s: Decode err = %v, want ErrDecodeCommand", name, err)
		}
	}
}

// TestRequestID_RetryCannotReorderPastANewerWrite is the failure request
// ids exist for: a client's write A is applied, but the answer is lost, so
// the member retries it; meanwhile the client's next write B was applied
// and acknowledged. The retry of A (a delayed copy of the same forwarded
// entry) must not overwrite B. Without request ids it does.
func TestRequestID_RetryCannotReorderPastANewerWrite(t *testing.T) {
	a := &state.PutKV{Namespace: "ns", Key: "k", Value: "A", HasValue: true}
	b := &state.PutKV{Namespace: "ns", Key: "k", Value: "B", HasValue: true}
	idA := state.RequestID{Session: "n2/1", Seq: 1, Floor: 1}
	idB := state.RequestID{Session: "n2/1", Seq: 2, Floor: 2}

	t.Run("with request ids the retry changes nothing", func(t *testing.T) {
		f := New(testLogger(t))
		f.Apply(identified(t, 1, idA, PutKVType, a))
		f.Apply(identified(t, 2, idB, PutKVType, b))
		// A's floor was passed when B was sent: the copy is refused.
		if res, _ := f.Apply(identified(t, 3, idA, PutKVType, a)).(error); !errors.Is(res, ErrSuperseded) {
			t.Fatalf("retry answered %v, want ErrSuperseded", res)
		}
		if v, _ := f.KV("ns", "k"); v != "B" {
			t.Fatalf("k = %q after the retry of A, want the newer acknowledged B", v)
		}
	})
	t.Run("without request ids the retry wins", func(t *testing.T) {
		f := New(testLogger(t))
		f.Apply(makeLog(t, 1, PutKVType, a))
		f.Apply(makeLog(t, 2, PutKVType, b))
		f.Apply(makeLog(t, 3, PutKVType, a))
		if v, _ := f.KV("ns", "k"); v != "A" {
			t.Fatalf("k = %q; the hazard this test documents is gone?", v)
		}
	})
}

// TestRequestID_GivenUpRequestNeverApplies: a request the member gave up
// on (it is below the floor of a later applied request) is refused when it
// arrives late, with ErrSuperseded, and changes nothing.
func TestRequestID_GivenUpRequestNeverApplies(t *testing.T) {
	f := New(testLogger(t))
	f.Apply(identified(t, 1, state.RequestID{Session: "s", Seq: 2, Floor: 2}, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "new", HasValue: true}))
	res := f.Apply(identified(t, 2, state.RequestID{Session: "s", Seq: 1, Floor: 1}, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "old", HasValue: true}))
	if err, _ := res.(error); !errors.Is(err, ErrSuperseded) {
		t.Fatalf("late request answered %v, want ErrSuperseded", res)
	}
	if v, _ := f.KV("ns", "k"); v != "new" {
		t.Fatalf("k = %q, want new", v)
	}
	// Requests still in flight when a newer one was sent (at or above its
	// floor) apply normally, in any order.
	f.Apply(identified(t, 3, state.RequestID{Session: "s", Seq: 4, Floor: 3}, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "four", HasValue: true}))
	f.Apply(identified(t, 4, state.RequestID{Session: "s", Seq: 3, Floor: 3}, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "three", HasValue: true}))
	if v, _ := f.KV("ns", "k"); v != "three" {
		t.Fatalf("k = %q, want three (concurrent requests apply in log order)", v)
	}
}

func TestRequestID_DuplicateGetsTheOriginalAnswer(t *testing.T) {
	h := newHarness(t)
	h.register(reg("b", 0, "10.0.0.1:10911", 1, "T1", "T2"))
	id := state.RequestID{Session: "s", Seq: 1, Floor: 1}
	first := h.f.Apply(identified(t, 10, id, WipeWritePermType, &state.WipeWritePerm{BrokerName: "b"}))
	h.register(reg("b", 0, "10.0.0.1:10911", 2, "T1", "T2", "T3")) // the state moves on
	again := h.f.Apply(identified(t, 12, id, WipeWritePermType, &state.WipeWritePerm{BrokerName: "b"}))
	if first != (state.WritePermResult{TopicCount: 2}) || again != first {
		t.Fatalf("first %v, duplicate %v; want both {2}", first, again)
	}
	if h.perm("T3", "b") != 6 {
		t.Fatal("the duplicate wiped the write permission again")
	}
}

// TestSessions_SurviveSnapshots: after a restore the table still knows
// which requests were applied.
func TestSessions_SurviveSnapshots(t *testing.T) {
	f := New(nil)
	id := state.RequestID{Session: "n1/x", Seq: 9, Floor: 9}
	f.Apply(identified(t, 1, id, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "first", HasValue: true}))
	g := New(nil)
	if err := g.Restore(io.NopCloser(bytes.NewReader(snapshotBytes(t, f)))); err != nil {
		t.Fatal(err)
	}
	g.Apply(identified(t, 2, state.RequestID{Session: "other", Seq: 1, Floor: 1}, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "second", HasValue: true}))
	g.Apply(identified(t, 3, id, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "first", HasValue: true}))
	if v, _ := g.KV("ns", "k"); v != "second" || g.Sessions() != 2 {
		t.Fatalf("k = %q with %d sessions after restore and a retry; want second and 2", v, g.Sessions())
	}
	if f.Digest() == New(nil).Digest() {
		t.Fatal("the session table is not part of the state digest")
	}
}
