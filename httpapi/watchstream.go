package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/raftns/raftns/events/watch"
)

// streamWatch serves the changes f matches as Server-Sent Events: each
// change as an event "change" whose id is its index, and "missed" when
// changes were dropped (read the state again; the stream goes on). A
// client that reconnects with Last-Event-ID (or index=) gets the changes
// after it that the member still remembers, or "missed".
func (s *Server) streamWatch(w http.ResponseWriter, r *http.Request, f watch.Filter, index uint64) {
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		fmt.Sscan(id, &index)
	}
	wt, err := s.watch.Watch(f, index)
	if err != nil {
		writeWatchError(w, err)
		return
	}
	defer wt.Close()
	shrinkSendBuffer(r)
	rc := http.NewResponseController(w)
	// Each event must reach the client's socket within the stream write
	// timeout; a client that stops reading is cut off once the socket's
	// buffers are full, instead of holding its connection forever.
	deadline := func() { _ = rc.SetWriteDeadline(time.Now().Add(s.opts.StreamWriteTimeout)) }
	deadline()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "event: hello\ndata: {\"index\":%d}\n\n", s.watch.Index())
	if s.streamBroke(rc.Flush()) {
		return
	}
	for {
		err := s.nextEvent(w, r, wt, deadline)
		if err == nil {
			err = rc.Flush()
		}
		if s.streamBroke(err) {
			return
		}
	}
}

// streamBroke reports a write that failed, counting one that missed the
// stream write deadline (a stuck client).
func (s *Server) streamBroke(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		s.stuckStreams.Add(1)
		s.logger.Info("watch stream closed: the client took nothing within the stream write timeout", "timeout", s.opts.StreamWriteTimeout)
	}
	return err != nil
}

// streamSendBuffer is the kernel send buffer a watch stream's socket gets:
// events are small, and it bounds what a stuck client pins in the kernel
// before the write deadline notices it.
const streamSendBuffer = 16 << 10

// shrinkSendBuffer sets the stream's socket send buffer (plain TCP only).
func shrinkSendBuffer(r *http.Request) {
	if c := connOf(r.Context()); c != nil {
		if tc, ok := c.Conn.(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(streamSendBuffer)
		}
	}
}

// nextEvent waits for the watcher's next event (or the keep-alive) and
// writes it.
func (s *Server) nextEvent(w http.ResponseWriter, r *http.Request, wt *watch.Watcher, deadline func()) error {
	ctx, cancel := context.WithTimeout(r.Context(), streamKeepAlive)
	defer cancel()
	ev, err := wt.Next(ctx)
	deadline()
	switch {
	case err != nil && r.Context().Err() == nil && ctx.Err() != nil:
		_, err = fmt.Fprint(w, ": keep-alive\n\n")
		return err
	case err != nil:
		return err
	case ev.Missed:
		_, err = fmt.Fprintf(w, "event: missed\ndata: {\"index\":%d}\n\n", ev.Index)
		return err
	}
	data, err := json.Marshal(changeJSON(ev.Change))
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "id: %d\nevent: change\ndata: %s\n\n", ev.Index, data)
	return err
}
