package lane

import "sync/atomic"

// maxIdleForwardWorkers bounds the goroutines kept waiting for the next
// forwarded write; beyond it a worker that finished exits. Followers
// forward as many writes at once as their brokers send, so the bound is
// about the concurrency a leader sees.
const maxIdleForwardWorkers = 64

// Workers runs the leader's side of forwarded writes on goroutines
// kept for reuse. net/rpc serves each request on a new goroutine, and the
// depth of a write (decoding, planning, raft.Apply) grew every new
// goroutine's stack from its initial size again: about 7 % of a leader's
// CPU under forwarded registrations. A reused goroutine keeps its stack.
type Workers struct {
	// idle holds the hand-off channel of each waiting worker.
	idle    chan chan forwardTask
	started atomic.Int64 // goroutines started, for tests
	stop    <-chan struct{}
}

// forwardTask is an operation and the channel closed once it returned (nil
// when nobody waits for it).
type forwardTask struct {
	fn   func()
	done chan struct{}
}

// NewWorkers returns workers that exit once stop is closed.
func NewWorkers(stop <-chan struct{}) *Workers {
	return &Workers{idle: make(chan chan forwardTask, maxIdleForwardWorkers), stop: stop}
}

// Run runs fn on a waiting worker, or on a new one, and returns once fn
// has returned.
func (w *Workers) Run(fn func()) {
	done := make(chan struct{})
	w.Submit(fn, done)
	<-done
}

// Submit hands fn to a waiting worker, or to a new one, and returns at
// once; done, when not nil, is closed once fn has returned.
func (w *Workers) Submit(fn func(), done chan struct{}) {
	t := forwardTask{fn: fn, done: done}
	select {
	case ch := <-w.idle:
		select {
		case ch <- t:
		case <-w.stop: // the worker may have left
			w.start(t)
		}
	default:
		w.start(t)
	}
}

func (w *Workers) start(t forwardTask) {
	w.started.Add(1)
	go w.worker(t)
}

// worker runs t, then offers itself for the next task while fewer than
// maxIdleForwardWorkers others wait, until stop is closed. It offers
// itself before it reports t done, so that an operation run after t
// finds it.
func (w *Workers) worker(t forwardTask) {
	next := make(chan forwardTask)
	for {
		t.fn()
		var waiting bool
		select {
		case w.idle <- next:
			waiting = true
		default:
		}
		if t.done != nil {
			close(t.done)
		}
		if !waiting {
			return
		}
		select {
		case t = <-next:
		case <-w.stop:
			return
		}
	}
}
