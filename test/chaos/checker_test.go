package chaos

import (
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// The checkers must catch what they are there to catch: these histories
// are built by hand, with times in seconds.

func ev(kind, key, value string, call, ret float64, out output) event {
	return event{In: input{Kind: kind, Key: key, Value: value, Member: "n1", Consistent: !isWrite(kind)},
		Out: out, Call: int64(call * float64(time.Second)), Return: int64(ret * float64(time.Second))}
}

func local(e event) event {
	e.In.Consistent = false
	return e
}

func historyOf(events ...event) *history {
	h := newHistory()
	for _, e := range events {
		h.add(e)
	}
	return h
}

func linearizable(h *history) porcupine.CheckResult {
	return porcupine.CheckOperationsTimeout(model, h.operations(), 10*time.Second)
}

func TestModel_LinearizabilityVerdicts(t *testing.T) {
	putA := ev(opPut, "k", "a", 0, 1, output{})
	putB := ev(opPut, "k", "b", 2, 3, output{})
	cases := []struct {
		name   string
		events []event
		want   porcupine.CheckResult
	}{
		{"read of the last acknowledged write", []event{putA, putB, ev(opReadKV, "k", "", 4, 5, output{Found: true, Value: "b"})}, porcupine.Ok},
		{"read of an overwritten value (a lost write)", []event{putA, putB, ev(opReadKV, "k", "", 4, 5, output{Found: true, Value: "a"})}, porcupine.Illegal},
		{"unknown write seen later", []event{putA, ev(opPut, "k", "c", 2, 3, output{Unknown: true}), ev(opReadKV, "k", "", 9, 10, output{Found: true, Value: "c"})}, porcupine.Ok},
		{"value seen before its write was sent", []event{putA, ev(opReadKV, "k", "", 2, 3, output{Found: true, Value: "c"}), ev(opPut, "k", "c", 4, 5, output{Unknown: true})}, porcupine.Illegal},
		{"wipe of an unregistered broker counts 1", []event{ev(opWipe, "b", "", 0, 1, output{Count: 1})}, porcupine.Illegal},
		{"route after wipe still writable", []event{ev(opRegister, "b", "", 0, 1, output{}), ev(opWipe, "b", "", 2, 3, output{Count: 1}),
			ev(opReadRoute, "b", "", 4, 5, output{Found: true, Writable: true})}, porcupine.Illegal},
		{"route after wipe read-only", []event{ev(opRegister, "b", "", 0, 1, output{}), ev(opWipe, "b", "", 2, 3, output{Count: 1}),
			ev(opReadRoute, "b", "", 4, 5, output{Found: true})}, porcupine.Ok},
	}
	for _, c := range cases {
		if got := linearizable(historyOf(c.events...)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestStaleReads_Bound(t *testing.T) {
	putA := ev(opPut, "k", "a", 0, 1, output{})
	putB := ev(opPut, "k", "b", 2, 3, output{})
	bound := 5 * time.Second
	cases := []struct {
		name  string
		read  event
		stale int
	}{
		{"old value within the bound", local(ev(opReadKV, "k", "", 6, 6.1, output{Found: true, Value: "a"})), 0},
		{"old value beyond the bound", local(ev(opReadKV, "k", "", 9, 9.1, output{Found: true, Value: "a"})), 1},
		{"initial absence beyond the bound", local(ev(opReadKV, "k", "", 9, 9.1, output{})), 1},
		{"current value", local(ev(opReadKV, "k", "", 30, 30.1, output{Found: true, Value: "b"})), 0},
		{"a value never written", local(ev(opReadKV, "k", "", 4, 4.1, output{Found: true, Value: "z"})), 1},
	}
	for _, c := range cases {
		stale, checked, _ := staleReads(historyOf(putA, putB, c.read), bound)
		if stale != c.stale || checked != 1 {
			t.Errorf("%s: %d stale of %d checked, want %d of 1", c.name, stale, checked, c.stale)
		}
	}
}

// A local read on the member that acknowledged a write, invoked after the
// acknowledgement, must show it or a write that may have come after it;
// reads on another member, or invoked before the answer, are not held to it.
func TestOwnWrites_ReadOnTheWritingMemberShowsTheWrite(t *testing.T) {
	putA := ev(opPut, "k", "a", 0, 1, output{})
	putB := ev(opPut, "k", "b", 2, 3, output{})
	on := func(member string, e event) event {
		e.In.Member = member
		return e
	}
	cases := []struct {
		name            string
		events          []event
		misses, checked int
	}{
		{"shows the member's write", []event{putA, putB, local(ev(opReadKV, "k", "", 3.1, 3.2, output{Found: true, Value: "b"}))}, 0, 1},
		{"shows an older value", []event{putA, putB, local(ev(opReadKV, "k", "", 3.1, 3.2, output{Found: true, Value: "a"}))}, 1, 1},
		{"absent after the member's put", []event{putA, local(ev(opReadKV, "k", "", 1.5, 1.6, output{}))}, 1, 1},
		{"shows a later write of another member", []event{putA, on("n2", ev(opDelete, "k", "", 1.2, 1.3, output{})),
			local(ev(opReadKV, "k", "", 1.5, 1.6, output{}))}, 0, 1},
		{"shows an unknown write invoked earlier", []event{ev(opPut, "k", "u", 0, 9, output{Unknown: true}), putB,
			local(ev(opReadKV, "k", "", 3.1, 3.2, output{Found: true, Value: "u"}))}, 0, 1},
		{"read on another member", []event{putA, putB, on("n2", local(ev(opReadKV, "k", "", 3.1, 3.2, output{Found: true, Value: "a"})))}, 0, 0},
		{"read invoked before the answer", []event{putA, putB, local(ev(opReadKV, "k", "", 2.5, 3.2, output{Found: true, Value: "a"}))}, 0, 1},
		{"route of a registered broker", []event{ev(opRegister, "b", "", 0, 1, output{}), local(ev(opReadRoute, "b", "", 1.1, 1.2, output{}))}, 1, 1},
	}
	for _, c := range cases {
		misses, checked, _ := ownWriteMisses(historyOf(c.events...))
		if misses != c.misses || checked != c.checked {
			t.Errorf("%s: %d misses of %d checked, want %d of %d", c.name, misses, checked, c.misses, c.checked)
		}
	}
}

func TestLostAcked_NamesAnOverwrittenAcknowledgedWrite(t *testing.T) {
	putA := ev(opPut, "k", "a", 0, 1, output{})
	putB := ev(opPut, "k", "b", 2, 3, output{})
	if n := lostAcked(historyOf(putA, putB, ev(opReadKV, "k", "", 9, 10, output{Found: true, Value: "a"}))); n != 1 {
		t.Fatalf("lost = %d, want 1", n)
	}
	if n := lostAcked(historyOf(putA, putB, ev(opReadKV, "k", "", 9, 10, output{Found: true, Value: "b"}))); n != 0 {
		t.Fatalf("lost = %d, want 0", n)
	}
}
