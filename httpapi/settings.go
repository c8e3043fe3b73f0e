package httpapi

import "net/http"

// installSettings serves GET /v1/config/members: every member's settings
// with their kinds and own values, as each answers over the cluster port
// (raftnsctl config diff). This member's alone are in GET /v1/status.
func (s *Server) installSettings() {
	s.mux.HandleFunc("GET /v1/config/members", s.memberSettings)
}

func (s *Server) memberSettings(w http.ResponseWriter, r *http.Request) {
	members, err := s.node.MemberSettings(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, members)
}
