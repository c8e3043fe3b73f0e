package watch

import (
	"context"
	"sync"
	"time"
)

// Watcher receives the changes its filter matches, in index order, until
// it is closed. Its buffer is bounded: when a change finds it full, the
// watcher is marked missed, and Next says so instead of the changes it
// still holds.
type Watcher struct {
	hub    *Hub
	filter Filter
	ch     chan Change
	// missed is signalled (capacity one) when a change was dropped.
	missed chan struct{}
	once   sync.Once
	closed chan struct{}
}

func newWatcher(h *Hub, f Filter, buffer int) *Watcher {
	return &Watcher{hub: h, filter: f, ch: make(chan Change, buffer), missed: make(chan struct{}, 1),
		closed: make(chan struct{})}
}

// offer hands c over without blocking; the caller holds the hub's lock.
func (w *Watcher) offer(c Change) {
	select {
	case w.ch <- c:
	default:
		w.miss()
	}
}

func (w *Watcher) miss() {
	select {
	case w.missed <- struct{}{}:
	default:
	}
}

func (w *Watcher) close() { w.once.Do(func() { close(w.closed) }) }

// Close unregisters the watcher.
func (w *Watcher) Close() { w.hub.remove(w) }

// Event is what Next returns: a change, or (Missed) word that changes were
// dropped, with the hub's index at the time: the watcher should read the
// state again and go on from Index.
type Event struct {
	Change
	Missed bool
}

// ErrClosed is Next's answer once the watcher or its hub is closed.
var ErrClosed = context.Canceled

// Next waits for the next event up to ctx. A missed signal drops what the
// buffer holds, since the reader must read the state again anyway.
func (w *Watcher) Next(ctx context.Context) (Event, error) {
	select {
	case <-w.missed:
		return w.missedEvent(), nil
	default:
	}
	select {
	case <-w.missed:
		return w.missedEvent(), nil
	case c := <-w.ch:
		return Event{Change: c}, nil
	case <-w.closed:
		return Event{}, ErrClosed
	case <-ctx.Done():
		return Event{}, ctx.Err()
	}
}

func (w *Watcher) missedEvent() Event {
	for {
		select {
		case <-w.ch:
		default:
			return Event{Change: Change{Index: w.hub.Index()}, Missed: true}
		}
	}
}

// Result answers a blocking query: the index to pass next time, the
// matching changes after the index asked about (oldest first), and
// whether changes may have been missed (read the state again).
type Result struct {
	Index   uint64
	Changes []Change
	Missed  bool
}

// maxChangesPerAnswer bounds the changes a blocking query returns at once.
const maxChangesPerAnswer = 256

// Wait is a blocking query: it answers at once when a change matching f
// happened after index (or index is 0, or lies before the recorded
// history), otherwise when one happens or wait ends.
func (h *Hub) Wait(ctx context.Context, f Filter, index uint64, wait time.Duration) (Result, error) {
	w, err := h.Watch(f, index)
	if err != nil {
		return Result{}, err
	}
	defer w.Close()
	if index == 0 {
		return Result{Index: h.Index()}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var res Result
	first, err := w.Next(ctx)
	// Every change up to idx was offered to w before idx was read, so
	// draining w now collects every match up to it.
	idx := h.Index()
	if err == nil {
		res.add(first.Change, first.Missed)
	}
	for i := 0; i <= cap(w.ch) && len(res.Changes) < maxChangesPerAnswer; i++ {
		select {
		case <-w.missed:
			res.add(Change{}, true)
			continue
		case c := <-w.ch:
			res.add(c, false)
			continue
		default:
		}
		break
	}
	res.Index = max(index, idx)
	if n := len(res.Changes); n > 0 {
		res.Index = max(res.Index, res.Changes[n-1].Index)
		if n == maxChangesPerAnswer {
			// More may wait: the next query goes on from the last one given.
			res.Index = res.Changes[n-1].Index
		}
	}
	return res, nil
}

// add records an event in a blocking query's answer; once changes were
// missed, the answer lists none.
func (r *Result) add(c Change, missed bool) {
	if missed || r.Missed {
		r.Missed, r.Changes = true, nil
		return
	}
	r.Changes = append(r.Changes, c)
}
