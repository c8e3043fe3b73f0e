package deploy

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raftns/raftns/internal/testtool"
)

// TestAlertRulesPassPromtool runs promtool's syntax check and the rules'
// unit tests, which feed series to each alert and check it fires (or not).
func TestAlertRulesPassPromtool(t *testing.T) {
	promtool := testtool.Require(t, "prometheus", "promtool")
	dir := filepath.Join("monitoring")
	for _, args := range [][]string{
		{"check", "rules", "raftns-alerts.yml"},
		{"test", "rules", "raftns-alerts.test.yml"},
	} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if !strings.Contains(string(out), "SUCCESS") {
			t.Fatalf("promtool %s did not report SUCCESS:\n%s", strings.Join(args, " "), out)
		}
	}
}
