package fsm

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// stormBatchGroups is how many group restarts one batch of the storm
// benchmark holds: 16 restarts of four entries each are the 64 entries
// Raft hands to the FSM at most at once.
const stormBatchGroups = 16

// BenchmarkFSM_ScaleRouteDuringStorm reads routes while another goroutine
// applies batches of group restarts (as Raft hands them over while a
// member catches up in a restart storm), and reports the reads' latency:
// p50, p99 and the longest read, which is how long a read can wait for the
// apply's write lock, and the entries applied a second meanwhile. One op is
// one route read.
func BenchmarkFSM_ScaleRouteDuringStorm(b *testing.B) {
	for _, sh := range scaleBenchShapes {
		b.Run(fmt.Sprintf("groups=%d/topics=%d", sh.groups, sh.topics), func(b *testing.B) {
			f, index := scaleBenchFSM(b, sh.groups, sh.topics, sh.placement)
			var batches [2][]Entry
			for round := range batches {
				for g := range stormBatchGroups {
					e := scaleRestartEntries(b, g, sh.groups, sh.topics, sh.placement, int64(round+2))
					batches[round] = append(batches[round], e[:]...)
				}
			}
			stop := make(chan struct{})
			var wg sync.WaitGroup
			start, applied := time.Now(), 0
			wg.Go(func() {
				for round := 0; ; round++ {
					select {
					case <-stop:
						return
					default:
					}
					batch := slices.Clone(batches[round%2])
					for i := range batch {
						batch[i].Index = index
						index++
					}
					f.ApplyBatch(batch)
					applied += len(batch)
				}
			})
			var lat []time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				if _, ok := f.Route(fmt.Sprintf("scale-topic-%06d", i%sh.topics), false); !ok {
					b.Fatal("no route")
				}
				lat = append(lat, time.Since(t0))
				i++
			}
			close(stop)
			wg.Wait()
			b.ReportMetric(float64(applied)/time.Since(start).Seconds(), "entries/s")
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds()), "max-µs")
		})
	}
}
