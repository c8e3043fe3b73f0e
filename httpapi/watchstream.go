package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "event: hello\ndata: {\"index\":%d}\n\n", s.watch.Index())
	if rc.Flush() != nil {
		return
	}
	for {
		if err := s.nextEvent(w, r, wt); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}

// nextEvent waits for the watcher's next event (or the keep-alive) and
// writes it.
func (s *Server) nextEvent(w http.ResponseWriter, r *http.Request, wt *watch.Watcher) error {
	ctx, cancel := context.WithTimeout(r.Context(), streamKeepAlive)
	defer cancel()
	ev, err := wt.Next(ctx)
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
