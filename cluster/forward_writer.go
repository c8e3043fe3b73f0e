package cluster

import (
	"net"
	"sync"
)

// maxKeptWriteBuffer bounds the write buffer a frameWriter keeps for reuse.
const maxKeptWriteBuffer = 1 << 20

// frameWriter writes a forward-lane connection's frames on one goroutine.
// Senders append their frame to a pending buffer and return; the writer
// takes everything pending at once, so frames queued while a write is in
// the kernel go out together in the next one: under load one write system
// call carries many frames, and an idle connection's frame goes at once.
type frameWriter struct {
	conn net.Conn
	mu   sync.Mutex
	buf  []byte // frames not yet taken by the writer
	kept []byte // the previous write's buffer, for reuse
	err  error  // the write error that stopped the writer
	wake chan struct{}
	stop chan struct{}
	once sync.Once
}

func newFrameWriter(conn net.Conn) *frameWriter {
	w := &frameWriter{conn: conn, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	go w.loop()
	return w
}

// send queues the frame fill appends; it fails once the writer stopped.
func (w *frameWriter) send(fill func([]byte) []byte) error {
	w.mu.Lock()
	if w.err != nil {
		err := w.err
		w.mu.Unlock()
		return err
	}
	w.buf = fill(w.buf)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default: // the writer is already due to look
	}
	return nil
}

// close stops the writer; frames not yet written are dropped.
func (w *frameWriter) close() { w.once.Do(func() { close(w.stop) }) }

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
			out := w.buf
			if len(out) == 0 {
				w.mu.Unlock()
				break
			}
			w.buf, w.kept = w.kept[:0], nil
			w.mu.Unlock()
			if _, err := w.conn.Write(out); err != nil {
				w.fail(err)
				w.conn.Close()
				return
			}
			if cap(out) <= maxKeptWriteBuffer {
				w.mu.Lock()
				w.kept = out[:0]
				w.mu.Unlock()
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
