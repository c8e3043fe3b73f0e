package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"testing"
)

// BenchmarkFSM_ApplyIdentifiedRegister is what every member pays per
// changed registration a broker sent: the request-id envelope written by
// the member that took it, then split, the entry decoded and applied, the
// answer encoded and recorded in a session with 64 requests in flight.
func BenchmarkFSM_ApplyIdentifiedRegister(b *testing.B) {
	f, index := benchFSM(b, 4, 10)
	plain := [2][]byte{
		makeLog(b, 0, RegisterBrokerType, benchRegistration(0, 10, 2)).Data,
		makeLog(b, 0, RegisterBrokerType, benchRegistration(0, 10, 3)).Data,
	}
	const inFlight = 64
	seq := uint64(inFlight)
	b.ReportAllocs()
	for b.Loop() {
		seq++
		entry, err := WithRequestID(state.RequestID{Session: "n1/0123456789abcdef", Seq: seq, Floor: seq - inFlight + 1}, plain[seq%2])
		if err != nil {
			b.Fatal(err)
		}
		if res, ok := f.Apply(Entry{Index: index, Command: true, Data: entry}).(state.RegisterResult); !ok {
			b.Fatalf("apply answered %v", res)
		}
		index++
	}
}

// BenchmarkRegisterResult_EncodeDecode is a registration's answer on its
// way back from the leader to a follower that forwarded it.
func BenchmarkRegisterResult_EncodeDecode(b *testing.B) {
	res := state.RegisterResult{MasterAddr: "10.0.0.1:10911", HaServerAddr: "10.0.0.1:10912"}
	b.ReportAllocs()
	for b.Loop() {
		buf, err := EncodeResult(RegisterBrokerType, res)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := DecodeResult(RegisterBrokerType, buf); err != nil {
			b.Fatal(err)
		}
	}
}
