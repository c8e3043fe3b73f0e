package httpapi

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm/state"
)

// finalizeUpgrade raises the cluster version on the leader
// (cluster.Node.FinalizeUpgrade); refused while a member runs an older
// release or does not answer.
func (s *Server) finalizeUpgrade(w http.ResponseWriter, r *http.Request) error {
	res, err := s.node.FinalizeUpgrade(r.Context())
	if err != nil || res.Previous != res.Current {
		s.record(r, state.AuditRecord{Kind: state.AuditUpgrade, Detail: fmt.Sprintf("from=%s to=%s", res.Previous, res.Current)}, err)
	}
	if errors.Is(err, cluster.ErrFinalizeRefused) {
		return &httpError{code: http.StatusConflict, msg: err.Error()}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
