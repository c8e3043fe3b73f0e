package namesrv

import (
	"context"

	"github.com/raftns/raftns/fsm/state"
)

// auditConfig records a settings update of this member in the replicated
// audit trail, with the caller ctx carries. The trail is best effort here:
// the update is made or refused whether or not its record is written.
func (s *Server) auditConfig(ctx context.Context, what string, update map[string]string, outcome string) {
	rec := state.AuditRecord{Kind: state.AuditConfigUpdate, Detail: what + ": " + state.SettingsDetail(update), Outcome: outcome}
	if err := s.cluster.RecordAudit(ctx, rec); err != nil {
		s.logger.Warn("config update not recorded in the audit trail", "error", err)
	}
}
