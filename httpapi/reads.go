package httpapi

import (
	"net/http"
	"strconv"

	"github.com/raftns/raftns/internal/adminapi"
)

// The admin API's state reads. By default they answer from this member's
// state, which may be stale (as client-port reads are); with
// ?consistent=true they are leader-checked first (cluster.Node.
// LinearizableRead) and reflect every write acknowledged before the request.
// 404 means the key or topic does not exist; 503 that no leader confirmed
// the read.

func (s *Server) getKV(w http.ResponseWriter, r *http.Request) {
	if !s.readBarrier(w, r) {
		return
	}
	ns, key := r.PathValue("namespace"), r.PathValue("key")
	v, ok := s.node.FSM().KV(ns, key)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no key " + key + " in namespace " + ns})
		return
	}
	writeJSON(w, http.StatusOK, adminapi.KV{Namespace: ns, Key: key, Value: v})
}

func (s *Server) getRoute(w http.ResponseWriter, r *http.Request) {
	if !s.readBarrier(w, r) {
		return
	}
	topic := r.PathValue("topic")
	rd, ok := s.node.FSM().Route(topic, false)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "no route for topic " + topic})
		return
	}
	writeJSON(w, http.StatusOK, rd)
}

// readBarrier waits until the local state shows every write this member
// answered, and runs the leader check of a consistent read; it answers the
// request itself and returns false when either failed. Every answer names
// the applied index it was read at.
func (s *Server) readBarrier(w http.ResponseWriter, r *http.Request) bool {
	err := s.node.AwaitVisible(r.Context())
	if err == nil && r.URL.Query().Get("consistent") == "true" {
		err = s.node.LinearizableRead(r.Context())
	}
	if err != nil {
		writeError(w, err)
		return false
	}
	w.Header().Set("X-Raftns-Applied-Index", strconv.FormatUint(s.node.FSM().AppliedIndex(), 10))
	return true
}
