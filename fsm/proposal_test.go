package fsm

import (
	"bytes"
	"github.com/raftns/raftns/fsm/state"
	"math/rand"
	"reflect"
	"testing"
)

// What RegistrationProposal says a registration's identified entry decodes
// to is what decoding the entry gives, nil and empty lists kept apart, for
// plain and compressed entries alike; a registration the hand encoder does
// not write gets no proposal.
func TestProposal_RegistrationIsWhatTheEntryDecodesTo(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	id := state.RequestID{Session: "n1/0123", Seq: 9, Floor: 4}
	for i := range 2000 {
		c := randomRegistration(r)
		if i == 0 {
			c = reg("b", 0, "10.0.0.1:10911", 1, bigTopics(3000)...) // compressed
		}
		plain, err := Encode(RegisterBrokerType, c)
		if err != nil {
			t.Fatal(err)
		}
		entry, err := WithRequestID(id, plain)
		if err != nil {
			t.Fatal(err)
		}
		p, ok := RegistrationProposal(id, c)
		if !ok {
			t.Fatalf("registration %d without mapping infos has no proposal", i)
		}
		decoded, err := DecodeProposal(entry)
		if err != nil {
			t.Fatalf("registration %d: %v", i, err)
		}
		if !reflect.DeepEqual(p, decoded) {
			t.Fatalf("registration %d: proposed %+v\ndecoded %+v", i, p.e, decoded.e)
		}
	}
	if _, ok := RegistrationProposal(id, &state.RegisterBroker{MappingInfos: []state.TopicQueueMappingInfo{}}); ok {
		t.Fatal("a registration with mapping infos has a proposal")
	}
}

// An expected entry is applied from its proposal, only when Raft hands the
// FSM the very slice that was expected, and only once; a copy of the same
// bytes, or an entry after Forget, is decoded.
func TestProposal_ExpectedEntryIsAppliedWithoutDecoding(t *testing.T) {
	put := func(v string) []byte {
		return makeLog(t, 0, PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: v, HasValue: true}).Data
	}
	// The proposal deliberately differs from the bytes, to show which
	// one was applied.
	other, err := DecodeProposal(put("from-proposal"))
	if err != nil {
		t.Fatal(err)
	}
	f := New(testLogger(t))
	apply := func(index uint64, data []byte) string {
		t.Helper()
		f.Apply(Entry{Index: index, Command: true, Data: data})
		v, _ := f.KV("ns", "k")
		return v
	}

	entry := put("from-bytes")
	f.Expect(entry, other)
	if v := apply(1, bytes.Clone(entry)); v != "from-bytes" {
		t.Fatalf("a copy of the expected bytes applied %q", v)
	}
	if v := apply(2, entry); v != "from-proposal" {
		t.Fatalf("the expected slice applied %q, want the proposal", v)
	}
	if v := apply(3, entry); v != "from-bytes" {
		t.Fatalf("the expected slice applied a second time gave %q, want it decoded", v)
	}
	f.Expect(entry, other)
	f.Forget(entry)
	if v := apply(4, entry); v != "from-bytes" {
		t.Fatalf("after Forget the entry applied %q, want it decoded", v)
	}
	f.Expect(entry, other)
	if _, ok := f.expectedEntry(entry[:len(entry)-1]); ok {
		t.Fatal("a shorter slice of the expected entry was taken for it")
	}
	f.Forget(entry)
	if n := len(f.expected.m); n != 0 {
		t.Fatalf("%d expectations left", n)
	}
}
