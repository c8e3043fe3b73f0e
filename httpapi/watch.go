package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/raftns/raftns/events/watch"
	"github.com/raftns/raftns/internal/adminapi"
)

// Bounds of a blocking query's wait.
const (
	defaultWatchWait = 30 * time.Second
	maxWatchWait     = 10 * time.Minute
	// streamKeepAlive is how often an idle stream sends a comment, so
	// proxies and clients see the connection alive.
	streamKeepAlive = 15 * time.Second
)

// EnableWatch serves GET /v1/watch from hub: a blocking query, or with
// ?stream=true (or Accept: text/event-stream) a Server-Sent Events stream.
func (s *Server) EnableWatch(hub *watch.Hub) {
	s.watch = hub
	s.mux.HandleFunc("GET /v1/watch", s.getWatch)
}

// watchParams reads GET /v1/watch's parameters.
func watchParams(r *http.Request) (f watch.Filter, index uint64, wait time.Duration, err error) {
	v := r.URL.Query()
	if f.Kinds, err = watch.ParseKinds(v.Get("kind")); err != nil {
		return f, 0, 0, err
	}
	f.Topic, f.Cluster = v.Get("topic"), v.Get("cluster")
	if s := v.Get("index"); s != "" {
		if index, err = strconv.ParseUint(s, 10, 64); err != nil {
			return f, 0, 0, fmt.Errorf("index=%q: want a Raft index", s)
		}
	}
	wait = defaultWatchWait
	if s := v.Get("wait"); s != "" {
		if wait, err = time.ParseDuration(s); err != nil || wait <= 0 || wait > maxWatchWait {
			return f, 0, 0, fmt.Errorf("wait=%q: want a duration from 1ms to %s, e.g. 10s", s, maxWatchWait)
		}
	}
	return f, index, wait, nil
}

func (s *Server) getWatch(w http.ResponseWriter, r *http.Request) {
	f, index, wait, err := watchParams(r)
	if err != nil {
		writeError(w, badRequest(err.Error()))
		return
	}
	done, ok := s.admitWatcher(w, r)
	if !ok {
		return
	}
	defer done()
	if r.URL.Query().Get("stream") == "true" || strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		s.streamWatch(w, r, f, index)
		return
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(wait + writeTimeout))
	res, err := s.watch.Wait(r.Context(), f, index, wait)
	if err != nil {
		writeWatchError(w, err)
		return
	}
	out := adminapi.WatchResult{Index: res.Index, Changes: make([]adminapi.WatchChange, 0, len(res.Changes)), Missed: res.Missed}
	for _, c := range res.Changes {
		out.Changes = append(out.Changes, changeJSON(c))
	}
	w.Header().Set("X-Raftns-Index", strconv.FormatUint(res.Index, 10))
	writeJSON(w, http.StatusOK, out)
}

func writeWatchError(w http.ResponseWriter, err error) {
	if errors.Is(err, watch.ErrTooManyWatchers) {
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": err.Error() + " (--watch-max-watchers)"})
		return
	}
	writeError(w, err)
}

func changeJSON(c watch.Change) adminapi.WatchChange {
	return adminapi.WatchChange{Index: c.Index, Kinds: c.Kinds.Names(), Topics: c.Topics, AllTopics: c.AllTopics,
		Clusters: c.Clusters}
}
