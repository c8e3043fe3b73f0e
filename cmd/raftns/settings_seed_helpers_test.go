package main

import (
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// isSettingsSeed reports the audit record of a seed of the cluster's
// run-time settings, which a new cluster's leader writes once per scope.
func isSettingsSeed(r adminapi.AuditRecord) bool {
	return r.Kind == state.AuditConfigUpdate && strings.Contains(r.Detail, "(seed from ")
}

// withoutSeeds returns trail without the seeds of the settings.
func withoutSeeds(trail []adminapi.AuditRecord) []adminapi.AuditRecord {
	var out []adminapi.AuditRecord
	for _, r := range trail {
		if !isSettingsSeed(r) {
			out = append(out, r)
		}
	}
	return out
}

// waitSettingsSeeded waits until p's trail holds both scopes' seeds: the
// cluster version allows the audit trail and the settings on p, and no
// seed is left to interleave with a test's changes.
func waitSettingsSeeded(t *testing.T, p *proc) {
	t.Helper()
	poll.For(t, 30*time.Second, p.ID+" holding the seeded settings", func() bool {
		trail, ok := trailOf(t, p)
		seeds := 0
		for _, r := range trail {
			if isSettingsSeed(r) && r.Outcome == state.OutcomeApplied {
				seeds++
			}
		}
		return ok && seeds == 2
	})
}
