package namesrv

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/raftns/raftns/fsm"
)

// secretSetting matches setting names whose values are never written to
// the audit trail: only that they changed is.
var secretSetting = regexp.MustCompile(`(?i)secret|password|passwd|token|credential|accesskey|private`)

// auditConfig records a settings update of this member in the replicated
// audit trail, with the caller ctx carries. The trail is best effort here:
// the update is made or refused whether or not its record is written.
func (s *Server) auditConfig(ctx context.Context, what string, update map[string]string, outcome string) {
	rec := fsm.AuditRecord{Kind: fsm.AuditConfigUpdate, Detail: what + ": " + settingsDetail(update), Outcome: outcome}
	if err := s.cluster.RecordAudit(ctx, rec); err != nil {
		s.logger.Warn("config update not recorded in the audit trail", "error", err)
	}
}

// settingsDetail lists key=value pairs in key order, masking secrets.
func settingsDetail(update map[string]string) string {
	keys := make([]string, 0, len(update))
	for k := range update {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := update[k]
		if secretSetting.MatchString(k) {
			v = "(hidden)"
		}
		parts = append(parts, fmt.Sprintf("%s=%s", k, v))
	}
	return strings.Join(parts, " ")
}
