package fsm

import (
	"fmt"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/internal/poll"
)

// classedHarness is a harness whose cluster version allows the retention
// classes (feature.AuditClasses), set without a log entry so that record
// indexes are the tests' own.
func classedHarness(t *testing.T) *harness {
	h := newHarness(t)
	h.f.st.ApplySetClusterVersion(&state.SetClusterVersion{Version: feature.AuditClasses.Since.String()})
	return h
}

// whoAnonymous is the caller of a request without credentials.
const whoAnonymous = "anonymous"

// noEffectShare is the no-effect class's share of a stamp's MaxRecords.
const noEffectShare = 10

// anonStamp is an anonymous caller's stamp keeping keep records.
func anonStamp(millis int64, keep int) state.AuditStamp {
	st := testStamp(millis, keep)
	st.Who = whoAnonymous
	return st
}

func TestAudit_NoChangeFloodEvictsNeitherOperatorNorAppliedRecords(t *testing.T) {
	h := classedHarness(t)
	h.applyAudited(testStamp(1, 100), PutKVType, &state.PutKV{Namespace: "n", Key: "op", Value: "v", HasValue: true})
	h.applyAudited(anonStamp(2, 100), PutKVType, &state.PutKV{Namespace: "n", Key: "anon", Value: "v", HasValue: true})
	for i := range 1000 {
		h.applyAudited(anonStamp(int64(3+i), 100), PutKVType, &state.PutKV{Namespace: "n", Key: "anon", Value: "v", HasValue: true})
	}
	if p := h.f.AuditRecords(state.AuditQuery{Who: "ops-key"}); len(p.Records) != 1 || p.Records[0].Index != 1 {
		t.Fatalf("the operator's record was pushed out: %+v", p)
	}
	applied := 0
	noChange := 0
	for _, r := range h.f.AuditRecords(state.AuditQuery{Who: whoAnonymous}).Records {
		switch r.Outcome {
		case state.OutcomeApplied:
			applied++
		case state.OutcomeNoChange:
			noChange++
		}
	}
	if applied != 1 || noChange != 100/noEffectShare {
		t.Fatalf("anonymous records: %d applied, %d no change; want 1 and %d", applied, noChange, 100/noEffectShare)
	}
}

func TestAudit_AnonymousChangesDoNotEvictOperatorRecords(t *testing.T) {
	h := classedHarness(t)
	h.applyAudited(testStamp(1, 10), DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	for i := range 50 {
		h.applyAudited(anonStamp(int64(2+i), 10), PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: fmt.Sprint(i), HasValue: true})
	}
	p := h.f.AuditRecords(state.AuditQuery{})
	if p.Total != 11 || p.Records[0].Who != "ops-key" || p.Records[1].Index != 42 {
		t.Fatalf("trail: total %d, first %+v", p.Total, p.Records[:2])
	}
}

func TestAudit_ClassesSurviveASnapshotAndMembersAgree(t *testing.T) {
	h := classedHarness(t)
	h.applyAudited(testStamp(1, 4), DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	for i := range 6 {
		h.applyAudited(anonStamp(int64(2+i), 4), DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
		h.applyAudited(anonStamp(int64(2+i), 4), PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: fmt.Sprint(i), HasValue: true})
	}
	g := New(nil)
	if err := restoreBytes(g, snapshotBytes(t, h.f)); err != nil {
		t.Fatal(err)
	}
	next := audited(t, anonStamp(100, 4), PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: "x", HasValue: true})
	h.index++
	h.f.Apply(Entry{Index: h.index, Command: true, Data: next})
	g.Apply(Entry{Index: h.index, Command: true, Data: next})
	if g.Digest() != h.f.Digest() {
		t.Fatal("a restored member and the original disagree after the same entry")
	}
	if a, b := h.f.AuditRecords(state.AuditQuery{}), g.AuditRecords(state.AuditQuery{}); fmt.Sprint(a) != fmt.Sprint(b) || a.Total != 1+4+1 {
		t.Fatalf("trails differ or are not bounded per class:\n%+v\n%+v", a, b)
	}
}

// TestAudit_BelowTheClassesOneBoundKeepsTheNewest: until the cluster
// version allows feature.AuditClasses, the trail keeps the newest
// MaxRecords records over every class, as release 0.3.0 does, so members
// of both releases keep the same trail while they run side by side.
func TestAudit_BelowTheClassesOneBoundKeepsTheNewest(t *testing.T) {
	h := newHarness(t)
	h.applyAudited(testStamp(1, 10), DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	for i := range 50 {
		h.applyAudited(anonStamp(int64(2+i), 10), PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: fmt.Sprint(i), HasValue: true})
		h.applyAudited(anonStamp(int64(2+i), 10), PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: fmt.Sprint(i), HasValue: true})
	}
	p := h.f.AuditRecords(state.AuditQuery{})
	if p.Total != 10 {
		t.Fatalf("trail holds %d records, want the newest 10", p.Total)
	}
	for i, r := range p.Records {
		if want := h.index - 9 + uint64(i); r.Index != want {
			t.Fatalf("record %d has index %d, want %d (the newest, in order): %+v", i, r.Index, want, p.Records)
		}
	}
	if k := h.f.AuditRecords(state.AuditQuery{Kind: state.AuditDeleteKV}); len(k.Records) != 0 {
		t.Fatalf("the evicted delete is still found: %+v", k)
	}
	if h.f.view().Count(state.AuditDeleteKV) != 0 {
		t.Fatal("the kind count still holds the evicted delete")
	}
}

func TestAudit_QueryHoldsNoStateLock(t *testing.T) {
	h := newHarness(t)
	for i := range 20 {
		h.applyAudited(testStamp(int64(i), 100), DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	}
	h.f.mu.Lock() // as an Apply in progress would
	defer h.f.mu.Unlock()
	done := make(chan state.AuditPage, 1)
	go func() { done <- h.f.AuditRecords(state.AuditQuery{Who: "nobody"}) }()
	poll.For(t, 10*time.Second, "an audit query while Apply holds the state lock", func() bool { return len(done) == 1 })
	if p := <-done; p.Total != 20 || len(p.Records) != 0 {
		t.Fatalf("page = %+v", p)
	}
	if h.f.LastAuditIndex() != 20 {
		t.Fatal("LastAuditIndex is not 20")
	}
}

func TestAudit_QueryExaminesABoundedNumberOfRecords(t *testing.T) {
	h := newHarness(t)
	for i := range 30 {
		st := testStamp(int64(i), 100)
		if i == 3 || i == 25 {
			st.Who = "rare"
		}
		h.applyAudited(st, DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	}
	v := h.f.view()
	p := v.Query(state.AuditQuery{Who: "rare"}, 10)
	if len(p.Records) != 1 || p.Records[0].Index != 26 || !p.More || p.Next != 21 {
		t.Fatalf("first page: %+v", p)
	}
	var found []uint64
	for q := (state.AuditQuery{Who: "rare", Before: p.Next}); ; {
		p = v.Query(q, 10)
		for _, r := range p.Records {
			found = append(found, r.Index)
		}
		if !p.More {
			break
		}
		q.Before = p.Next
	}
	if fmt.Sprint(found) != "[4]" {
		t.Fatalf("paging on found %v", found)
	}
	p = v.Query(state.AuditQuery{After: 1, Who: "rare"}, 10)
	if len(p.Records) != 1 || p.Records[0].Index != 4 || !p.More || p.Next != 11 {
		t.Fatalf("forward page: %+v", p)
	}
	if p := v.Query(state.AuditQuery{Kind: state.AuditPutKV}, 1); p.More || len(p.Records) != 0 || p.Total != 30 {
		t.Fatalf("a kind the trail does not hold: %+v", p)
	}
}
