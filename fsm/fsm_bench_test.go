package fsm

import (
	"fmt"
	"io"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm/state"
)

// The benchmarks below cover the FSM's hot paths: applying a changed
// registration, the dedup check every heartbeat pays, building a route,
// encoding and decoding a registration entry, and snapshots.

// benchRegistration is master brokerIndex of cluster "bench" carrying
// topics topics "t<j>" with 8 queues each.
func benchRegistration(brokerIndex, topics int, counter int64) *state.RegisterBroker {
	c := &state.RegisterBroker{
		ClusterName: "bench", BrokerName: fmt.Sprintf("broker-%d", brokerIndex),
		BrokerAddr: fmt.Sprintf("10.0.%d.%d:10911", brokerIndex/256, brokerIndex%256), HaServerAddr: "10.0.0.1:10912",
		DataVersion:         state.DataVersion{Timestamp: 1700000000000, Counter: counter},
		HasFilterServerList: true, StampMillis: 1700000000000,
	}
	for j := range topics {
		c.TopicConfigs = append(c.TopicConfigs, state.TopicConfig{TopicName: fmt.Sprintf("t%d", j), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
	}
	return c
}

// benchFSM returns an FSM holding brokers brokers of topics topics each
// (every broker carries the same topics) and the next free log index.
func benchFSM(b *testing.B, brokers, topics int) (*FSM, uint64) {
	b.Helper()
	f := New(hclog.NewNullLogger())
	for i := range brokers {
		f.Apply(makeLog(b, uint64(i+1), RegisterBrokerType, benchRegistration(i, topics, 1)))
	}
	return f, uint64(brokers + 1)
}

func BenchmarkFSM_ApplyRegisterChanged(b *testing.B) {
	for _, topics := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("topics=%d", topics), func(b *testing.B) {
			f, index := benchFSM(b, 4, topics)
			// Alternating DataVersions make every apply a real change.
			logs := [2]Entry{
				makeLog(b, 0, RegisterBrokerType, benchRegistration(0, topics, 2)),
				makeLog(b, 0, RegisterBrokerType, benchRegistration(0, topics, 3)),
			}
			b.ReportAllocs()
			for b.Loop() {
				l := logs[index%2]
				l.Index = index
				index++
				if res, ok := f.Apply(l).(state.RegisterResult); !ok {
					b.Fatalf("apply answered %v", res)
				}
			}
		})
	}
}

func BenchmarkFSM_WouldChangeUnchanged(b *testing.B) {
	for _, topics := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("topics=%d", topics), func(b *testing.B) {
			f, _ := benchFSM(b, 4, topics)
			hb := benchRegistration(0, topics, 1)
			b.ReportAllocs()
			for b.Loop() {
				if f.WouldChange(hb) {
					b.Fatal("an unchanged registration would change the state")
				}
			}
		})
	}
}

// BenchmarkFSM_WouldChangeChanged is the check a changed registration
// pays before it is proposed.
func BenchmarkFSM_WouldChangeChanged(b *testing.B) {
	for _, topics := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("topics=%d", topics), func(b *testing.B) {
			f, _ := benchFSM(b, 4, topics)
			changed := benchRegistration(0, topics, 2)
			b.ReportAllocs()
			for b.Loop() {
				if !f.WouldChange(changed) {
					b.Fatal("a registration with a new DataVersion would change nothing")
				}
			}
		})
	}
}

func BenchmarkFSM_Route(b *testing.B) {
	for _, brokers := range []int{2, 16, 128} {
		b.Run(fmt.Sprintf("brokers=%d", brokers), func(b *testing.B) {
			f, _ := benchFSM(b, brokers, 10)
			b.ReportAllocs()
			for b.Loop() {
				if rd, ok := f.Route("t3", false); !ok || len(rd.QueueDatas) != brokers {
					b.Fatalf("route has %d queue datas, want %d", len(rd.QueueDatas), brokers)
				}
			}
		})
	}
}

func BenchmarkEncode_RegisterBroker(b *testing.B) {
	for _, topics := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("topics=%d", topics), func(b *testing.B) {
			cmd := benchRegistration(0, topics, 1)
			var size int
			b.ReportAllocs()
			for b.Loop() {
				buf, err := Encode(RegisterBrokerType, cmd)
				if err != nil {
					b.Fatal(err)
				}
				size = len(buf)
			}
			b.ReportMetric(float64(size), "entry-bytes")
		})
	}
}

func BenchmarkDecode_RegisterBroker(b *testing.B) {
	for _, topics := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("topics=%d", topics), func(b *testing.B) {
			buf, err := Encode(RegisterBrokerType, benchRegistration(0, topics, 1))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Decode(buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFSM_SnapshotPersist(b *testing.B) {
	for _, shape := range []struct{ brokers, topics int }{{100, 100}, {1000, 100}} {
		b.Run(fmt.Sprintf("brokers=%d/topics=%d", shape.brokers, shape.topics), func(b *testing.B) {
			f, _ := benchFSM(b, shape.brokers, shape.topics)
			var cw countingWriter
			b.ReportAllocs()
			for b.Loop() {
				cw = 0
				snap, err := f.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				if err := snap.st.Write(&cw, snap.meta); err != nil {
					b.Fatal(err)
				}
				snap.Release()
			}
			b.ReportMetric(float64(cw), "snapshot-bytes")
		})
	}
}

// BenchmarkFSM_ApplyAfterSnapshot measures the first apply after a
// snapshot froze the state, which copies the top-level tables.
func BenchmarkFSM_ApplyAfterSnapshot(b *testing.B) {
	for _, topics := range []int{1000, 20000} {
		b.Run(fmt.Sprintf("topics=%d", topics), func(b *testing.B) {
			f, index := benchFSM(b, 4, topics)
			small := [2]Entry{
				makeLog(b, 0, RegisterBrokerType, benchRegistration(100, 1, 2)),
				makeLog(b, 0, RegisterBrokerType, benchRegistration(100, 1, 3)),
			}
			b.ReportAllocs()
			for b.Loop() {
				snap, err := f.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				l := small[index%2]
				l.Index = index
				index++
				f.Apply(l)
				snap.Release()
			}
		})
	}
}

// countingWriter counts and discards what is written.
type countingWriter int64

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
