package fsm

import (
	"fmt"
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
			cmd := &PutKV{Namespace: "bench", Key: fmt.Sprintf("key-%d", i%8), Value: fmt.Sprintf("%064d", i), HasValue: true}
			if stamped {
				h.applyAudited(AuditStamp{Millis: 1_796_000_000_000 + int64(i), Who: "ops-account", From: "10.1.2.3:54321",
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
