package fsm

import (
	"fmt"
	"github.com/raftns/raftns/fsm/state"
	"testing"
)

// BenchmarkAudit_SnapshotBytesPer10000Records reports what 10,000 audit
// records of KV puts (a 64-byte value, shortened in the record) add to a
// snapshot: the snapshot of a state holding them minus that of the same
// state without them.
func BenchmarkAudit_SnapshotBytesPer10000Records(b *testing.B) {
	const records = 10_000
	build := func(stamped bool) int {
		h := newHarness(b)
		h.f = New(nil)
		for i := range records {
			cmd := &state.PutKV{Namespace: "bench", Key: fmt.Sprintf("key-%d", i%8), Value: fmt.Sprintf("%064d", i), HasValue: true}
			if stamped {
				h.applyAudited(state.AuditStamp{Millis: 1_796_000_000_000 + int64(i), Who: "ops-account", From: "10.1.2.3:54321",
					Via: "raftns-2", MaxRecords: records}, PutKVType, cmd)
			} else {
				h.apply(PutKVType, cmd)
			}
		}
		return len(snapshotBytes(b, h.f))
	}
	var with, without int
	for b.Loop() {
		with, without = build(true), build(false)
	}
	b.ReportMetric(float64(with-without), "bytes/10k-records")
	b.ReportMetric(float64(with-without)/records, "bytes/record")
}

// BenchmarkAudit_ApplyPutKV is the FSM's cost of a KV put with and without
// its audit envelope: decoding the stamp, describing the change, appending
// the record to a full trail of 10,000.
func BenchmarkAudit_ApplyPutKV(b *testing.B) {
	for _, stamped := range []bool{false, true} {
		b.Run(fmt.Sprint("audited=", stamped), func(b *testing.B) {
			h := newHarness(b)
			h.f = New(nil)
			entries := make([][]byte, 1000)
			for i := range entries {
				cmd := &state.PutKV{Namespace: "bench", Key: "k", Value: fmt.Sprintf("%064d", i), HasValue: true}
				if stamped {
					entries[i] = audited(b, state.AuditStamp{Millis: int64(i), Who: "ops-account", From: "10.1.2.3:54321",
						Via: "raftns-2", MaxRecords: 10_000}, PutKVType, cmd)
				} else {
					entries[i] = makeLog(b, 0, PutKVType, cmd).Data
				}
			}
			for i := range 10_000 { // a full trail
				h.index++
				h.f.Apply(Entry{Index: h.index, Command: true, Data: entries[i%len(entries)]})
			}
			for b.Loop() {
				h.index++
				h.f.Apply(Entry{Index: h.index, Command: true, Data: entries[h.index%uint64(len(entries))]})
			}
		})
	}
}
