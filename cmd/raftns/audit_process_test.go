package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// adminCall sends an admin request with the catalogue's token and returns
// the answer's body, failing the test on any status but 200.
func adminCall(t *testing.T, p *proc, method, path string, body ...byte) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t, 30*time.Second), method, "http://"+p.HTTPAddr+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+catToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s = %d %s", method, path, resp.StatusCode, answer)
	}
	return answer
}

// TestProcess_AuditTrailNamesCallersKeepsNoSecretAndSurvivesARestart
// makes changes as an ACL account and with the admin token (a snapshot
// restore), then reads the trail before and after a restart from a
// snapshot, and looks for the token and the secret keys in the trail and
// in the member's log. A member that forms a cluster runs at its release,
// so the trail is on from the start.
func TestProcess_AuditTrailNamesCallersKeepsNoSecretAndSurvivesARestart(t *testing.T) {
	_, tokenFile, aclFile := catalogueFiles(t)
	p := newProc(t, "n1", "--http-token-file", tokenFile, "--acl-mode", "writes", "--acl-file", aclFile,
		"--acl-broker-addrs", "127.0.0.1", "--snapshot-threshold", "1", "--snapshot-interval", "100ms", "--trailing-logs", "1")
	p.start()
	p.waitReady()
	waitSettingsSeeded(t, p)
	c := newClient(t)
	ctx := ctxT(t, time.Minute)
	if _, err := c.RegisterBroker(ctx, p.ClientAddr, brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "TopicA")); err != nil {
		t.Fatal(err)
	}
	wipe := signedRequest(&remoting.Command{Code: remoting.WipeWritePermOfBroker,
		ExtFields: map[string]string{"brokerName": "broker-a"}}, catAdminKey, catAdminSecret)
	if code, remark := invokeCode(t, c, p.ClientAddr, wipe); code != remoting.Success {
		t.Fatalf("signed wipe: %d %s", code, remark)
	}
	update := signedRequest(&remoting.Command{Code: remoting.UpdateNamesrvConfig,
		Body: []byte("orderMessageEnable=true\nexternalSecretKey=" + catUserSecret + "\n")}, catAdminKey, catAdminSecret)
	if code, remark := invokeCode(t, c, p.ClientAddr, update); code != remoting.Success {
		t.Fatalf("signed config update: %d %s", code, remark)
	}
	unsigned := &remoting.Command{Code: remoting.DeleteKVConfig, ExtFields: map[string]string{"namespace": "ns", "key": "k"}}
	if code, _ := invokeCode(t, c, p.ClientAddr, unsigned); code != remoting.NoPermission {
		t.Fatalf("unsigned delete answered %d", code)
	}

	// A restore of a backup taken now keeps these records and adds its own.
	backup := adminCall(t, p, http.MethodGet, "/v1/snapshot")
	adminCall(t, p, http.MethodPost, "/v1/snapshot", backup...)
	var before adminapi.AuditPage
	poll.For(t, 10*time.Second, "three audit records", func() bool {
		before = adminapi.AuditPage{}
		if json.Unmarshal(adminCall(t, p, http.MethodGet, "/v1/audit"), &before) != nil {
			return false
		}
		before.Records = withoutSeeds(before.Records)
		return len(before.Records) == 3
	})
	wiped, cfg, restored := before.Records[0], before.Records[1], before.Records[2]
	if restored.Kind != state.AuditSnapshotRestore || restored.Who != "admin-token" || !strings.HasPrefix(restored.From, "127.0.0.1:") ||
		restored.Via != "n1" || restored.Outcome != state.OutcomeApplied {
		t.Fatalf("restore record = %+v", restored)
	}
	if wiped.Kind != state.AuditWipeWritePerm || wiped.Who != catAdminKey || wiped.Broker != "broker-a" ||
		!strings.HasPrefix(wiped.From, "127.0.0.1:") || wiped.Detail != "topics=1" {
		t.Fatalf("wipe record = %+v", wiped)
	}
	if cfg.Kind != state.AuditConfigUpdate || cfg.Who != catAdminKey ||
		cfg.Detail != "name server: externalSecretKey=(hidden) orderMessageEnable=true" || cfg.Outcome != state.OutcomeApplied {
		t.Fatalf("config record = %+v", cfg)
	}

	// A restart from the snapshot holds the same trail, and its leader
	// does not log the records again.
	poll.For(t, 10*time.Second, "a snapshot of the trail", func() bool {
		return strings.Contains(p.Log(), "snapshot complete up to")
	})
	p.terminate()
	first := p.Log()
	p.start()
	p.waitReady()
	var after adminapi.AuditPage
	if err := json.Unmarshal(adminCall(t, p, http.MethodGet, "/v1/audit"), &after); err != nil {
		t.Fatal(err)
	}
	after.Records = withoutSeeds(after.Records)
	if len(after.Records) != 3 || after.Records[0] != wiped || after.Records[1] != cfg || after.Records[2] != restored {
		t.Fatalf("after the restart: %+v", after.Records)
	}
	restarted := p.Log()
	if !strings.Contains(restarted, "snapshot restored") || strings.Contains(restarted, "audit.go") ||
		strings.Contains(restarted, "raftns.cluster.audit") {
		t.Fatalf("the restart did not restore a snapshot, or logged the records again:\n%s", restarted)
	}
	trail := string(adminCall(t, p, http.MethodGet, "/v1/audit"))
	for _, secret := range []string{catToken, catAdminSecret, catUserSecret} {
		if strings.Contains(trail, secret) || strings.Contains(first, secret) || strings.Contains(restarted, secret) {
			t.Fatalf("a secret reached the audit trail or the log")
		}
	}
	if !strings.Contains(first, "raftns.cluster.audit: audit:") {
		t.Fatal("the leader logged no audit line")
	}
}
