package fsm

import (
	"bytes"
	"errors"
	"github.com/raftns/raftns/fsm/state"
	"io"
	"reflect"
	"strings"
	"testing"
)

func testStamp(millis int64, keep int) state.AuditStamp {
	return state.AuditStamp{Millis: millis, Who: "ops-key", From: "10.0.0.9:51234", Via: "n2", MaxRecords: keep}
}

// audited encodes cmd in an audit envelope.
func audited(t testing.TB, st state.AuditStamp, typ CommandType, cmd any) []byte {
	t.Helper()
	buf, err := Encode(typ, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if buf, err = WithAudit(st, buf); err != nil {
		t.Fatal(err)
	}
	return buf
}

func (h *harness) applyAudited(st state.AuditStamp, typ CommandType, cmd any) any {
	h.t.Helper()
	h.index++
	return h.f.Apply(Entry{Index: h.index, Command: true, Data: audited(h.t, st, typ, cmd)})
}

func TestAudit_EachAuditedCommandLeavesOneRecordWithItsStampAndOutcome(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1", "T2"))
	st := testStamp(1000, 100)
	h.applyAudited(st, WipeWritePermType, &state.WipeWritePerm{BrokerName: brokerA})
	h.applyAudited(st, DeleteTopicType, &state.DeleteTopic{Topic: "nope"})
	h.applyAudited(st, PutKVType, &state.PutKV{Namespace: "ORDER_TOPIC_CONFIG", Key: "T1", Value: strings.Repeat("x", 500), HasValue: true})
	h.applyAudited(st, RecordAuditType, &state.RecordAudit{Record: state.AuditRecord{Kind: state.AuditLeaderTransfer, Detail: "to=n3", Outcome: state.OutcomeApplied}})
	page := h.f.AuditRecords(state.AuditQuery{})
	if len(page.Records) != 4 || page.Total != 4 {
		t.Fatalf("records = %+v", page)
	}
	wipe, del, kv, rec := page.Records[0], page.Records[1], page.Records[2], page.Records[3]
	if wipe.Kind != state.AuditWipeWritePerm || wipe.Broker != brokerA || wipe.Outcome != state.OutcomeApplied ||
		wipe.Detail != "topics=2" || wipe.Who != "ops-key" || wipe.From != st.From || wipe.Via != "n2" ||
		wipe.Millis != 1000 || wipe.Index != 2 {
		t.Fatalf("wipe record = %+v", wipe)
	}
	if del.Kind != state.AuditDeleteTopic || del.Topic != "nope" || del.Outcome != state.OutcomeNoChange {
		t.Fatalf("delete record = %+v", del)
	}
	if kv.Topic != "T1" || !strings.Contains(kv.Detail, `xxx…"(500 bytes)`) || len(kv.Detail) > 100 {
		t.Fatalf("kv record = %+v", kv)
	}
	if rec.Kind != state.AuditLeaderTransfer || rec.Detail != "to=n3" || rec.Outcome != state.OutcomeApplied {
		t.Fatalf("recorded change = %+v", rec)
	}
}

func TestAudit_UnstampedEntriesAndRegistrationsLeaveNoRecord(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	h.apply(WipeWritePermType, &state.WipeWritePerm{BrokerName: brokerA})
	if p := h.f.AuditRecords(state.AuditQuery{}); p.Total != 0 {
		t.Fatalf("records without stamps: %+v", p)
	}
	if _, err := WithAudit(testStamp(1, 10), mustEncode(t, RegisterBrokerType, reg(brokerA, 0, masterAddr, 2, "T1"))); err == nil {
		t.Fatal("a registration was given an audit envelope")
	}
}

func mustEncode(t *testing.T, typ CommandType, cmd any) []byte {
	t.Helper()
	buf, err := Encode(typ, cmd)
	if err != nil {
		t.Fatal(err)
	}
	return buf
}

func TestAudit_TrailIsBoundedByCountAndAge(t *testing.T) {
	h := newHarness(t)
	for i := range 10 {
		h.applyAudited(testStamp(int64(i)*1000, 4), DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	}
	p := h.f.AuditRecords(state.AuditQuery{})
	if p.Total != 4 || p.Records[0].Index != 7 || p.Records[3].Index != 10 {
		t.Fatalf("count bound: %+v", p)
	}
	st := testStamp(20_000, 100)
	st.MaxAgeMillis = 12_000
	h.applyAudited(st, DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	p = h.f.AuditRecords(state.AuditQuery{})
	if p.Total != 3 || p.Records[0].Millis != 8000 {
		t.Fatalf("age bound: %+v", p)
	}
}

func TestAudit_SnapshotKeepsTheTrailAndMembersAgree(t *testing.T) {
	h := newHarness(t)
	before := snapshotBytes(t, h.f)
	if recordTypes(t, before)["audit"] {
		t.Fatal("an empty trail wrote audit records")
	}
	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	h.applyAudited(testStamp(5, 10), AddWritePermType, &state.AddWritePerm{BrokerName: brokerA})
	snap := snapshotBytes(t, h.f) // freezes the state: the next record goes to a copy
	h.applyAudited(testStamp(6, 10), DeleteTopicType, &state.DeleteTopic{Topic: "T1"})
	g := New(nil)
	if err := restoreBytes(g, snap); err != nil {
		t.Fatal(err)
	}
	if p := g.AuditRecords(state.AuditQuery{}); p.Total != 1 || p.Records[0].Kind != state.AuditAddWritePerm {
		t.Fatalf("restored trail: %+v", p)
	}
	g.Apply(Entry{Index: 3, Command: true, Data: audited(t, testStamp(6, 10), DeleteTopicType, &state.DeleteTopic{Topic: "T1"})})
	if g.Digest() != h.f.Digest() {
		t.Fatal("a restored member and the original disagree after the same entry")
	}
	if p := h.f.AuditRecords(state.AuditQuery{}); p.Total != 2 {
		t.Fatalf("trail after the snapshot: %+v", p)
	}
}

func TestAudit_QueryFiltersAndPages(t *testing.T) {
	h := newHarness(t)
	for i := range 6 {
		st := testStamp(int64(i), 100)
		if i%2 == 1 {
			st.Who = "other"
		}
		h.applyAudited(st, DeleteTopicType, &state.DeleteTopic{Topic: []string{"A", "B"}[i%2]})
	}
	if p := h.f.AuditRecords(state.AuditQuery{Who: "other"}); len(p.Records) != 3 || p.Records[0].Topic != "B" {
		t.Fatalf("who filter: %+v", p)
	}
	p := h.f.AuditRecords(state.AuditQuery{Topic: "A", Limit: 2})
	if len(p.Records) != 2 || !p.More || p.Records[0].Index != 3 || p.Records[1].Index != 5 {
		t.Fatalf("newest page: %+v", p)
	}
	p = h.f.AuditRecords(state.AuditQuery{Topic: "A", Before: 3})
	if len(p.Records) != 1 || p.Records[0].Index != 1 || p.More {
		t.Fatalf("older page: %+v", p)
	}
	p = h.f.AuditRecords(state.AuditQuery{After: 4, SinceMillis: 5})
	if len(p.Records) != 1 || p.Records[0].Index != 6 {
		t.Fatalf("forward page: %+v", p)
	}
}

func TestAudit_MalformedStampsAreRefused(t *testing.T) {
	inner := mustEncode(t, DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	for name, st := range map[string]state.AuditStamp{
		"no bound":   {Who: "a", MaxRecords: 0},
		"too many":   {Who: "a", MaxRecords: state.MaxAuditRecords + 1},
		"negative":   {Who: "a", MaxRecords: 1, MaxAgeMillis: -1},
		"long field": {Who: strings.Repeat("w", 300), MaxRecords: 1},
	} {
		if _, err := WithAudit(st, inner); err == nil {
			t.Errorf("%s: WithAudit accepted %+v", name, st)
		}
	}
	good := audited(t, testStamp(1, 1), DeleteKVType, &state.DeleteKV{Namespace: "n", Key: "k"})
	for _, bad := range [][]byte{good[:len(good)-len(inner)], append(good[:len(good)-len(inner):len(good)-len(inner)], good...)} {
		if _, _, err := Decode(bad); !errors.Is(err, ErrDecodeCommand) {
			t.Errorf("Decode(%x) = %v, want a decode error", bad, err)
		}
	}
}

func TestAudit_ExpiryNamesTheBrokersItRemovesAndItsReason(t *testing.T) {
	h := newHarness(t)
	h.register(reg(brokerA, 0, masterAddr, 1, "T1"))
	epoch := h.index
	h.applyAudited(state.AuditStamp{Millis: 9, Who: "raftns", Via: "n1", MaxRecords: 10}, ExpireBrokersType,
		&state.ExpireBrokers{Reason: "timeout", Brokers: []state.ExpiredBroker{{Key: state.BrokerKey{Cluster: cluster, Addr: masterAddr}, RegEpoch: epoch}}})
	r := h.f.AuditRecords(state.AuditQuery{Broker: brokerA}).Records
	if len(r) != 1 || r[0].Kind != state.AuditBrokerExpiry || r[0].Cluster != cluster || r[0].Outcome != state.OutcomeApplied ||
		!strings.Contains(r[0].Detail, "reason=timeout") || !strings.Contains(r[0].Detail, masterAddr) {
		t.Fatalf("expiry records = %+v", r)
	}
}

// fixtureLogAudit is the history behind testdata/snapshots/fsm-audit.snap:
// the v2 history, the cluster version raised to 0.3.0, and audited
// changes of each shape (a wipe, a KV put, an expiry by the leader, a
// recorded leadership transfer).
func fixtureLogAudit(t testing.TB) []Entry {
	logs := fixtureLogV2(t)
	next := uint64(len(logs))
	logs = append(logs, makeLog(t, next+1, SetClusterVersionType, &state.SetClusterVersion{Version: "0.3.0"}))
	st := state.AuditStamp{Millis: 1_796_000_000_000, Who: "ops-key", From: "10.9.8.7:50000", Via: "n2", MaxRecords: 100}
	leader := state.AuditStamp{Millis: 1_796_000_001_000, Who: "raftns", Via: "n1", MaxRecords: 100}
	for i, c := range []struct {
		st  state.AuditStamp
		typ CommandType
		cmd any
	}{
		{st, WipeWritePermType, &state.WipeWritePerm{BrokerName: brokerA}},
		{st, PutKVType, &state.PutKV{Namespace: "ORDER_TOPIC_CONFIG", Key: "T1", Value: "broker-a:4", HasValue: true}},
		{leader, ExpireBrokersType, &state.ExpireBrokers{Reason: "timeout", Brokers: []state.ExpiredBroker{{Key: state.BrokerKey{Cluster: cluster, Addr: "10.0.0.99:10911"}, RegEpoch: 1}}}},
		{st, RecordAuditType, &state.RecordAudit{Record: state.AuditRecord{Kind: state.AuditLeaderTransfer, Detail: "from=n1 to=n2", Outcome: state.OutcomeApplied}}},
	} {
		logs = append(logs, Entry{Index: next + 2 + uint64(i), Command: true, Data: audited(t, c.st, c.typ, c.cmd)})
	}
	return logs
}

const fixtureAudit = "fsm-audit.snap"

// TestFSM_Restore_FixtureAudit restores the snapshot with audit records
// (record type 16) kept in testdata. Rewrite it with -update only while
// the audit record is unreleased.
func TestFSM_Restore_FixtureAudit(t *testing.T) {
	want := New(testLogger(t))
	want.ApplyBatch(fixtureLogAudit(t))
	f, _ := restoreFixture(t, fixtureAudit, want)
	got, exp := f.AuditRecords(state.AuditQuery{}), want.AuditRecords(state.AuditQuery{})
	if len(got.Records) != 4 || !reflect.DeepEqual(got, exp) || got.Records[0].Who != "ops-key" ||
		got.Records[3].Kind != state.AuditLeaderTransfer {
		t.Errorf("restored trail = %+v", got)
	}
	if !reflect.DeepEqual(reads(f), reads(want)) || f.Digest() != want.Digest() {
		t.Error("restored fixture differs from the scripted history")
	}
	// The fixture was written by release 0.3.0, which its meta record
	// names: a newer build writes its own release there, and otherwise
	// the same state.
	again := New(testLogger(t))
	if err := again.Restore(io.NopCloser(bytes.NewReader(snapshotBytes(t, f)))); err != nil {
		t.Fatalf("restore the re-persisted fixture: %v", err)
	}
	if again.Digest() != want.Digest() || !reflect.DeepEqual(again.AuditRecords(state.AuditQuery{}), exp) {
		t.Error("re-persisting the restored fixture changes its state")
	}
}
