package lane

import (
	"net"
	"runtime"
	"sync"
	"time"
)

// maxKeptWriteBuffer bounds the write buffer a frameWriter keeps for reuse.
const maxKeptWriteBuffer = 1 << 20

// forwardWriteTimeout bounds one write on a forward-lane connection. A peer
// that takes no bytes for this long is treated as gone: the connection
// closes, and the writes waiting on it fail and are retried.
const forwardWriteTimeout = 10 * time.Second

// frameWriter writes a forward-lane connection's frames. A sender that finds
// no write in progress writes the pending frames itself, on its own
// goroutine: an idle connection's frame costs no hand-over to another
// goroutine, which on a busy machine is a wait for a CPU. Before it takes
// them it yields once, so that senders already runnable (many handlers or
// leader workers finishing at once under load) add their frames to the same
// system call; with nothing else runnable the yield returns at once. A
// sender that finds a write in progress only appends its frame; whatever
// was appended meanwhile is written in one system call after the current
// one, by the writer's own goroutine, so a sender never writes more than
// the one batch it started.
type frameWriter struct {
	conn net.Conn
	// timeout bounds one write (forwardWriteTimeout; shorter in tests).
	timeout time.Duration
	mu      sync.Mutex
	buf     []byte // frames not yet taken by a writer
	kept    []byte // the previous write's buffer, for reuse
	// writing is set while a sender or the loop writes; the one that
	// clears it has found buf empty under mu.
	writing bool
	err     error // the write error that stopped the writer
	wake    chan struct{}
	stop    chan struct{}
	once    sync.Once
}

func newFrameWriter(conn net.Conn) *frameWriter {
	w := &frameWriter{conn: conn, timeout: forwardWriteTimeout, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	go w.loop()
	return w
}

// send queues the frame fill appends, and writes it at once when no write
// is in progress; it fails once the writer stopped, or when that write
// fails.
func (w *frameWriter) send(fill func([]byte) []byte) error {
	w.mu.Lock()
	if w.err != nil {
		err := w.err
		w.mu.Unlock()
		return err
	}
	w.buf = fill(w.buf)
	if w.writing {
		w.mu.Unlock()
		return nil // the write in progress hands this frame on
	}
	w.writing = true
	w.mu.Unlock()
	runtime.Gosched()
	w.mu.Lock()
	if w.err != nil { // the connection failed while this sender yielded
		err := w.err
		w.mu.Unlock()
		return err
	}
	out := w.takeLocked()
	w.mu.Unlock()
	if err := w.write(out); err != nil {
		return err
	}
	w.handOn()
	return nil
}

// takeLocked takes every pending frame; w.mu is held.
func (w *frameWriter) takeLocked() []byte {
	out := w.buf
	w.buf, w.kept = w.kept[:0], nil
	return out
}

// write writes out; a failed write stops the writer and closes the
// connection.
func (w *frameWriter) write(out []byte) error {
	_ = w.conn.SetWriteDeadline(time.Now().Add(w.timeout))
	if _, err := w.conn.Write(out); err != nil {
		w.fail(err)
		w.conn.Close()
		return err
	}
	w.mu.Lock()
	if cap(out) <= maxKeptWriteBuffer && w.err == nil {
		w.kept = out[:0]
	}
	w.mu.Unlock()
	return nil
}

// handOn ends a sender's write: frames appended meanwhile go to the loop,
// and otherwise the connection is free for the next sender.
func (w *frameWriter) handOn() {
	w.mu.Lock()
	more := len(w.buf) > 0
	if !more {
		w.writing = false
	}
	w.mu.Unlock()
	if more {
		select {
		case w.wake <- struct{}{}:
		default: // the loop is already due to look
		}
	}
}

// close stops the writer; frames not yet written are dropped.
func (w *frameWriter) close() { w.once.Do(func() { close(w.stop) }) }

// loop writes the frames a sender handed on, until none is left, and
// then frees the connection for senders again.
func (w *frameWriter) loop() {
	for {
		select {
		case <-w.wake:
		case <-w.stop:
			w.fail(net.ErrClosed)
			return
		}
		for {
			w.mu.Lock()
			if len(w.buf) == 0 || w.err != nil {
				w.writing = false
				w.mu.Unlock()
				break
			}
			out := w.takeLocked()
			w.mu.Unlock()
			if w.write(out) != nil {
				return
			}
		}
	}
}

func (w *frameWriter) fail(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.buf, w.kept = nil, nil
	w.mu.Unlock()
}
