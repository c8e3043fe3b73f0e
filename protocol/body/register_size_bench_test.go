package body

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

// BenchmarkCompressedRegisterBody100kTopics measures the compressed
// REGISTER_BROKER body of a 5.x broker with 100,000 topics named like
// application topics (20-48 characters), in the layout of Java's
// RegisterBrokerBody.encode(true): its size on the wire, what it inflates
// to (the figure DefaultMaxInflated must admit), what its decoding charges
// to the request-memory budget, and the decode time.
func BenchmarkCompressedRegisterBody100kTopics(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	rb := &RegisterBody{DataVersion: state.DataVersion{Timestamp: 1700000000000, Counter: 100000}}
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789_-"
	for i := range 100000 {
		name := make([]byte, 20+rng.IntN(29))
		for j := range name {
			name[j] = alphabet[rng.IntN(len(alphabet))]
		}
		rb.TopicConfigs = append(rb.TopicConfigs, state.TopicConfig{
			TopicName: fmt.Sprintf("%s-%d", name, i), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6,
		})
	}
	wire, err := encodeCompressed(rb, true)
	if err != nil {
		b.Fatal(err)
	}
	zr, err := zlib.NewReader(bytes.NewReader(wire))
	if err != nil {
		b.Fatal(err)
	}
	inflated, err := io.Copy(io.Discard, zr)
	if err != nil {
		b.Fatal(err)
	}
	charged := 0
	lim := Inflation{Charge: func(n int) bool { charged += n; return true }}
	b.ResetTimer()
	for range b.N {
		charged = 0
		if _, err := DecodeRegisterBodyLimited(wire, true, VersionMappingSection, lim); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(wire)), "wire-bytes")
	b.ReportMetric(float64(inflated), "inflated-bytes")
	b.ReportMetric(float64(charged), "budget-bytes")
}
