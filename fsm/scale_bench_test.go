package fsm

import (
	"fmt"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/fsm/state"
)

// The benchmarks below hold the shape of a large deployment: groups
// broker groups of a master and a slave, topics distinct topics each on
// placement groups (raftns-bench scale builds the same fleet), and measure
// what one broker's restart costs a member there: its unregistration, its
// registration with a new DataVersion, the first write after a snapshot,
// and the heartbeat check.

// scaleBenchShape is the default large shape and a tenth of it.
var scaleBenchShapes = []struct{ groups, topics, placement int }{
	{100, 10000, 8},
	{1000, 100000, 8},
}

// scaleGroupRegistration is replica id of group g, carrying the topics
// raftns-bench's placement gives it, with DataVersion counter.
func scaleGroupRegistration(g, id, groups, topics, placement int, counter int64) *state.RegisterBroker {
	c := &state.RegisterBroker{
		ClusterName: "bench", BrokerName: fmt.Sprintf("group-%d", g), BrokerID: int64(id),
		BrokerAddr:   fmt.Sprintf("10.%d.%d.%d:10911", id, g/256, g%256),
		HaServerAddr: fmt.Sprintf("10.%d.%d.%d:10912", id, g/256, g%256),
		DataVersion:  state.DataVersion{Timestamp: 1700000000000, Counter: counter}, HasFilterServerList: true, StampMillis: 1700000000000,
	}
	stride := groups / placement
	for k := range placement {
		for t := ((g-k*stride)%groups + groups) % groups; t < topics; t += groups {
			c.TopicConfigs = append(c.TopicConfigs, state.TopicConfig{TopicName: fmt.Sprintf("scale-topic-%06d", t), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
		}
	}
	return c
}

// scaleBenchFSM returns an FSM holding the shape and the next free index.
func scaleBenchFSM(b *testing.B, groups, topics, placement int) (*FSM, uint64) {
	b.Helper()
	f := New(hclog.NewNullLogger())
	index := uint64(1)
	for g := range groups {
		for id := range 2 {
			f.Apply(makeLog(b, index, RegisterBrokerType, scaleGroupRegistration(g, id, groups, topics, placement, 1)))
			index++
		}
	}
	return f, index
}

// scaleRestartEntries is what group g's restart writes: master and slave
// unregister, then register again with DataVersion counter (indexes unset).
func scaleRestartEntries(b *testing.B, g, groups, topics, placement int, counter int64) [4]Entry {
	var e [4]Entry
	for id := range 2 {
		reg := scaleGroupRegistration(g, id, groups, topics, placement, counter)
		e[id] = makeLog(b, 0, UnregisterBrokerType, &state.UnregisterBroker{ClusterName: reg.ClusterName,
			BrokerAddr: reg.BrokerAddr, BrokerName: reg.BrokerName, BrokerID: reg.BrokerID})
		e[2+id] = makeLog(b, 0, RegisterBrokerType, reg)
	}
	return e
}

// BenchmarkFSM_ScaleBrokerRestart applies what one group's restart writes:
// master and slave unregister, then register again with a new
// DataVersion; one op is all four entries.
func BenchmarkFSM_ScaleBrokerRestart(b *testing.B) {
	for _, sh := range scaleBenchShapes {
		b.Run(fmt.Sprintf("groups=%d/topics=%d", sh.groups, sh.topics), func(b *testing.B) {
			f, index := scaleBenchFSM(b, sh.groups, sh.topics, sh.placement)
			var entries [][4]Entry
			for round := range 2 {
				entries = append(entries, scaleRestartEntries(b, 0, sh.groups, sh.topics, sh.placement, int64(round+2)))
			}
			b.ReportAllocs()
			for b.Loop() {
				for _, l := range entries[index%2] {
					l.Index = index
					index++
					f.Apply(l)
				}
			}
		})
	}
}

// BenchmarkFSM_ScaleApplyAfterSnapshot is the first write after a
// snapshot froze the state: a heartbeat-sized change of one broker.
func BenchmarkFSM_ScaleApplyAfterSnapshot(b *testing.B) {
	for _, sh := range scaleBenchShapes {
		b.Run(fmt.Sprintf("groups=%d/topics=%d", sh.groups, sh.topics), func(b *testing.B) {
			f, index := scaleBenchFSM(b, sh.groups, sh.topics, sh.placement)
			logs := [2]Entry{
				makeLog(b, 0, RegisterBrokerType, scaleGroupRegistration(0, 0, sh.groups, sh.topics, sh.placement, 2)),
				makeLog(b, 0, RegisterBrokerType, scaleGroupRegistration(0, 0, sh.groups, sh.topics, sh.placement, 3)),
			}
			b.ReportAllocs()
			for b.Loop() {
				snap, err := f.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				l := logs[index%2]
				l.Index = index
				index++
				f.Apply(l)
				snap.Release()
			}
		})
	}
}

// BenchmarkFSM_ScaleWouldChangeUnchanged is the check a heartbeat that
// misses the member's registration cache pays.
func BenchmarkFSM_ScaleWouldChangeUnchanged(b *testing.B) {
	for _, sh := range scaleBenchShapes {
		b.Run(fmt.Sprintf("groups=%d/topics=%d", sh.groups, sh.topics), func(b *testing.B) {
			f, _ := scaleBenchFSM(b, sh.groups, sh.topics, sh.placement)
			reg := scaleGroupRegistration(0, 0, sh.groups, sh.topics, sh.placement, 1)
			b.ReportAllocs()
			for b.Loop() {
				if f.WouldChange(reg) {
					b.Fatal("an unchanged registration would change the state")
				}
			}
		})
	}
}

// BenchmarkFSM_ScaleRegisterDeletingUnlisted applies a master's registration
// with deleteTopicWithBrokerRegistration and a new DataVersion, listing
// every topic but one it serves (which then loses this group's queue data,
// and gets it back at the next op): finding the unlisted topics walks the
// group's own topics.
func BenchmarkFSM_ScaleRegisterDeletingUnlisted(b *testing.B) {
	for _, sh := range scaleBenchShapes {
		b.Run(fmt.Sprintf("groups=%d/topics=%d", sh.groups, sh.topics), func(b *testing.B) {
			f, index := scaleBenchFSM(b, sh.groups, sh.topics, sh.placement)
			var logs [2]Entry
			for i := range logs {
				reg := scaleGroupRegistration(0, 0, sh.groups, sh.topics, sh.placement, int64(i+2))
				reg.DeleteUnlistedTopics = true
				reg.TopicConfigs = reg.TopicConfigs[i:]
				logs[i] = makeLog(b, 0, RegisterBrokerType, reg)
			}
			b.ReportAllocs()
			for b.Loop() {
				l := logs[index%2]
				l.Index = index
				index++
				f.Apply(l)
			}
		})
	}
}
