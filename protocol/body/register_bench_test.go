package body

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

// benchRegisterBody is a 5.x registration of topics topics and a few
// static-topic mappings.
func benchRegisterBody(topics int) *RegisterBody {
	rb := &RegisterBody{DataVersion: state.DataVersion{Timestamp: ts, Counter: 12}, HasFilterServerList: true}
	for i := range topics {
		rb.TopicConfigs = append(rb.TopicConfigs, state.TopicConfig{TopicName: fmt.Sprintf("topic-%d", i), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
	}
	for i := range 4 {
		rb.MappingInfos = append(rb.MappingInfos, state.TopicQueueMappingInfo{Topic: fmt.Sprintf("static-%d", i), Scope: "__global__",
			TotalQueues: 4, Bname: "broker-a", CurrIDMap: map[int32]int32{0: 0, 1: 1, 2: 2, 3: 3}})
	}
	return rb
}

// BenchmarkEncodeRegisterBody is what a broker of 5.x sends uncompressed.
func BenchmarkEncodeRegisterBody(b *testing.B) {
	rb := benchRegisterBody(1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeRegisterBody(rb, false, VersionMappingSection); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeRegisterBody reads a plain body in the compact form
// brokers write and, spaced, through the general reader.
func BenchmarkDecodeRegisterBody(b *testing.B) {
	compact, err := EncodeRegisterBody(benchRegisterBody(1000), false, VersionMappingSection)
	if err != nil {
		b.Fatal(err)
	}
	spaced := bytes.ReplaceAll(compact, []byte(`":`), []byte(`": `))
	for _, c := range []struct {
		name string
		body []byte
	}{{"compact", compact}, {"spaced", spaced}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeRegisterBody(c.body, false, VersionMappingSection); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
