package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/raftns/raftns/cluster"
)

// showHere holds a change the leader made for a proxied request (a
// snapshot restore) until this member shows it too, so that this member's
// reads after the answer find the change, as they do after a write sent
// on the client port. The leader's read index covers the change; a member
// that cannot reach it in time answers 503 saying that the change was made
// but does not show here yet, instead of the leader's success.
func (s *Server) showHere(resp *http.Response) error {
	req := resp.Request
	if req.Method == http.MethodGet || req.Method == http.MethodHead || resp.StatusCode/100 != 2 {
		return nil
	}
	err := s.node.LinearizableRead(req.Context())
	if err == nil {
		return nil
	}
	resp.Body.Close()
	body, _ := json.MarshalIndent(map[string]string{"error": fmt.Sprintf(
		"%v: the leader answered %d to %s %s, but this member does not show the change yet: %v",
		cluster.ErrNotVisibleYet, resp.StatusCode, req.Method, req.URL.Path, err)}, "", "  ")
	body = append(body, '\n')
	resp.StatusCode, resp.Status = http.StatusServiceUnavailable, http.StatusText(http.StatusServiceUnavailable)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	resp.Header.Set("Content-Type", "application/json")
	return nil
}
