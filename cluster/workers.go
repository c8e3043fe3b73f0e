package cluster

import "sync/atomic"

// maxIdleForwardWorkers bounds the goroutines kept waiting for the next
// forwarded write; beyond it a worker that finished exits. Followers
// forward as many writes at once as their brokers send, so the bound is
// about the concurrency a leader sees.
const maxIdleForwardWorkers = 64

// forwardWorkers runs the leader's side of forwarded writes on goroutines
// kept for reuse. net/rpc serves each request on a new goroutine, and the
// depth of a write (decoding, planning, raft.Apply) grew every new
// goroutine's stack from its initial size again: about 7 % of a leader's
// CPU under forwarded registrations. A reused goroutine keeps its stack.
type forwardWorkers struct {
	work    chan func()
	idle    atomic.Int32
	started atomic.Int64 // goroutines started, for tests
	stop    <-chan struct{}
}

// newForwardWorkers returns workers that exit once stop is closed.
func newForwardWorkers(stop <-chan struct{}) *forwardWorkers {
	return &forwardWorkers{work: make(chan func()), stop: stop}
}

// run runs fn on a waiting worker, or on a new one, and returns once fn
// has returned.
func (w *forwardWorkers) run(fn func()) {
	done := make(chan struct{})
	task := func() {
		defer close(done)
		fn()
	}
	select {
	case w.work <- task:
	default:
		w.started.Add(1)
		go w.worker(task)
	}
	<-done
}

// worker runs task, then waits for the next one while no more than
// maxIdleForwardWorkers others wait, until stop is closed.
func (w *forwardWorkers) worker(task func()) {
	for {
		task()
		if w.idle.Add(1) > maxIdleForwardWorkers {
			w.idle.Add(-1)
			return
		}
		select {
		case task = <-w.work:
			w.idle.Add(-1)
		case <-w.stop:
			w.idle.Add(-1)
			return
		}
	}
}
