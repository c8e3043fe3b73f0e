// Package watch tells HTTP watchers when the replicated state changes: a
// Consul-style blocking query (Wait) and a stream of changes (Watch). The
// FSM hands every change to Publish under its lock; Publish only queues
// it, and one goroutine fans it out, so a slow or stuck watcher never
// holds up Apply: when its buffer is full it is told it missed changes
// and must read the state again.
package watch

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Defaults of Config.
const (
	DefaultMaxWatchers = 2048
	DefaultBuffer      = 64
	// defaultHistory is how many recent changes a blocking query can look
	// back through; defaultQueue how many changes may wait for the
	// fan-out before watchers are told they missed some.
	defaultHistory = 4096
	defaultQueue   = 8192
)

// ErrTooManyWatchers refuses a watcher beyond Config.MaxWatchers.
var ErrTooManyWatchers = errors.New("watch: too many watchers on this member")

// Config bounds a Hub.
type Config struct {
	// MaxWatchers bounds the watchers served at once (blocking queries
	// included); Buffer the changes queued for one watcher.
	MaxWatchers int
	Buffer      int
}

// Hub fans the changes of one member's state out to its watchers.
type Hub struct {
	cfg Config
	in  chan Change
	// overflow is set when Publish found the queue full: every watcher
	// is then told it missed changes.
	overflow atomic.Bool

	mu       sync.Mutex
	history  []Change // the most recent changes, oldest first
	horizon  uint64   // changes at or below it may be missing from history
	last     uint64   // index of the last change fanned out
	watchers map[*Watcher]struct{}
	stop     chan struct{}
	done     chan struct{}
}

// NewHub starts a hub whose state is at index start (what the member has
// applied when it starts). Close stops it.
func NewHub(cfg Config, start uint64) *Hub {
	if cfg.MaxWatchers <= 0 {
		cfg.MaxWatchers = DefaultMaxWatchers
	}
	if cfg.Buffer <= 0 {
		cfg.Buffer = DefaultBuffer
	}
	h := &Hub{cfg: cfg, in: make(chan Change, defaultQueue), horizon: start, last: start,
		watchers: map[*Watcher]struct{}{}, stop: make(chan struct{}), done: make(chan struct{})}
	go h.run()
	return h
}

// Close stops the fan-out; watchers see their channels closed.
func (h *Hub) Close() {
	select {
	case <-h.stop:
	default:
		close(h.stop)
	}
	<-h.done
}

// Publish queues a change. It never blocks: with the queue full the change
// is dropped and every watcher learns it missed changes.
func (h *Hub) Publish(c Change) {
	select {
	case h.in <- c:
	default:
		h.overflow.Store(true)
	}
}

// Index is the index of the last change fanned out.
func (h *Hub) Index() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last
}

// Watchers is how many watchers are registered now.
func (h *Hub) Watchers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.watchers)
}

func (h *Hub) run() {
	defer close(h.done)
	for {
		select {
		case <-h.stop:
			h.mu.Lock()
			for w := range h.watchers {
				w.close()
			}
			h.watchers = map[*Watcher]struct{}{}
			h.mu.Unlock()
			return
		case c := <-h.in:
			h.fanOut(c)
		}
	}
}

// fanOut records c and hands it to every watcher it matches.
func (h *Hub) fanOut(c Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	// Read under the lock so that whoever holds it sees the flag as
	// Publish left it; a drop after c counts as before it, which only
	// tells watchers a little early.
	lost := h.overflow.Swap(false)
	if lost {
		// Changes were dropped before c: nothing before it can be
		// answered from history.
		h.history, h.horizon = h.history[:0], c.Index
	}
	if c.Index > h.last {
		h.last = c.Index
	}
	if len(h.history) == defaultHistory {
		h.horizon = h.history[0].Index
		h.history = append(h.history[:0], h.history[1:]...)
	}
	h.history = append(h.history, c)
	for w := range h.watchers {
		switch {
		case lost:
			w.miss()
		case len(w.missed) > 0:
			// Told already: it drops its buffer and reads again, so
			// offering it more is wasted work.
		case w.filter.Matches(c):
			w.offer(c)
		}
	}
}

// Watch registers a watcher of the changes f matches, first replaying the
// recorded changes after index (none when index is 0). A watcher whose
// index lies before what history holds starts missed. Close it when done.
func (h *Hub) Watch(f Filter, index uint64) (*Watcher, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.watchers) >= h.cfg.MaxWatchers {
		return nil, ErrTooManyWatchers
	}
	w := newWatcher(h, f, h.cfg.Buffer)
	if index != 0 {
		if index < h.horizon {
			w.miss()
		}
		for _, c := range h.history {
			if c.Index > index && f.Matches(c) {
				w.offer(c)
			}
		}
	}
	h.watchers[w] = struct{}{}
	return w, nil
}

// remove unregisters w.
func (h *Hub) remove(w *Watcher) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.watchers[w]; ok {
		delete(h.watchers, w)
		w.close()
	}
}
