package lane

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// Operations run one after another reuse one goroutine; concurrent ones
// all run, each returning once done; no more than maxIdleForwardWorkers
// stay waiting, and those leave when the member stops.
func TestForwardWorkers_ReuseBoundAndStop(t *testing.T) {
	stop := make(chan struct{})
	w := NewWorkers(stop)
	ran := 0
	for range 100 {
		w.Run(func() { ran++ })
	}
	if ran != 100 {
		t.Fatalf("ran %d of 100", ran)
	}
	if got := w.started.Load(); got != 1 {
		t.Fatalf("%d goroutines started for 100 operations one after another, want 1", got)
	}

	const concurrent = 4 * maxIdleForwardWorkers
	var wg sync.WaitGroup
	var inside, done atomic.Int32
	release := make(chan struct{})
	for range concurrent {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Run(func() {
				inside.Add(1)
				<-release
			})
			done.Add(1)
		}()
	}
	poll.For(t, 10*time.Second, "every operation to be running at once", func() bool { return inside.Load() == concurrent })
	if done.Load() != 0 {
		t.Fatal("run returned before its operation did")
	}
	close(release)
	wg.Wait()
	if got := len(w.idle); got != maxIdleForwardWorkers {
		t.Fatalf("%d workers wait after %d concurrent operations, want the bound %d", got, concurrent, maxIdleForwardWorkers)
	}
	close(stop)
	// After stop an operation still runs, whether or not the worker it
	// finds has left.
	for range 2 * maxIdleForwardWorkers {
		w.Run(func() { ran++ })
	}
	if ran != 100+2*maxIdleForwardWorkers {
		t.Fatalf("ran %d operations after stop, want %d", ran-100, 2*maxIdleForwardWorkers)
	}
}
