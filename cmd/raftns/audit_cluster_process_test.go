package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/protocol/remoting"
)

// trailOf reads p's whole audit trail; ok is false when p does not answer
// with one.
func trailOf(t *testing.T, p *proc) ([]adminapi.AuditRecord, bool) {
	t.Helper()
	resp, err := p.Do(ctxT(t, 10*time.Second), "GET", "/v1/audit?limit=1000")
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	var page adminapi.AuditPage
	if resp.StatusCode != 200 || json.NewDecoder(resp.Body).Decode(&page) != nil || page.More {
		return nil, false
	}
	return page.Records, true
}

// wantTrail waits until every member of ps answers exactly want.
func wantTrail(t *testing.T, ps []*proc, want []adminapi.AuditRecord, when string) {
	t.Helper()
	for _, p := range ps {
		var got []adminapi.AuditRecord
		err := poll.Until(ctxT(t, time.Minute), 20*time.Second, 10*time.Millisecond, p.ID+"'s trail "+when, func() (bool, error) {
			var ok bool
			got, ok = trailOf(t, p)
			return ok && slices.Equal(got, want), nil
		})
		if err != nil {
			t.Fatalf("%v: it answers %+v, want %+v", err, got, want)
		}
	}
}

// recordOf returns the only record of kind in trail.
func recordOf(t *testing.T, trail []adminapi.AuditRecord, kind string) adminapi.AuditRecord {
	t.Helper()
	var found []adminapi.AuditRecord
	for _, r := range trail {
		if r.Kind == kind {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s records in %+v", len(found), kind, trail)
	}
	return found[0]
}

// Raft's log lines for a snapshot taken, and for one a starting member
// restored its state from.
var (
	snapshotTaken    = regexp.MustCompile(`snapshot complete up to: .*index=(\d+)`)
	snapshotRestored = regexp.MustCompile(`restored from snapshot: .*last-index=(\d+)`)
)

// snapshotHolds reports whether p's log has a line of snapshot at or after
// index.
func snapshotHolds(p *proc, snapshot *regexp.Regexp, index uint64) bool {
	for _, m := range snapshot.FindAllStringSubmatch(p.Log(), -1) {
		if n, err := strconv.ParseUint(m[1], 10, 64); err == nil && n >= index {
			return true
		}
	}
	return false
}

// auditedChanges makes one change of each kind through real callers on a
// three-member cluster: a write-permission wipe and a KV put signed with an
// ACL account, a leadership transfer and a snapshot restore with raftnsctl
// and the admin token (each through a follower), and a broker that stops
// heartbeating expires. It returns the trail once the leader holds it all.
func auditedChanges(t *testing.T, ps []*proc, tokenFile string) []adminapi.AuditRecord {
	t.Helper()
	for _, p := range ps {
		waitSettingsSeeded(t, p)
	}
	leader := leaderOf(t, ps)
	c := newClient(t)
	if _, err := c.RegisterBroker(ctxT(t, 30*time.Second), leader.ClientAddr,
		brokerRegistration("c1", "broker-a", "127.0.0.1:10911", 0, 1, "TopicA")); err != nil {
		t.Fatal(err)
	}
	// The member that takes a change stamps it only once it has applied
	// the cluster version that turns the trail on.
	poll.For(t, 20*time.Second, "the trail on at every member", func() bool {
		for _, p := range ps {
			if st, err := p.Status(context.Background()); err != nil || st.ClusterVersion != buildinfo.Release {
				return false
			}
		}
		return true
	})
	wipe := signedRequest(&remoting.Command{Code: remoting.WipeWritePermOfBroker,
		ExtFields: map[string]string{"brokerName": "broker-a"}}, catAdminKey, catAdminSecret)
	put := signedRequest(&remoting.Command{Code: remoting.PutKVConfig,
		ExtFields: map[string]string{"namespace": "ORDER_TOPIC_CONFIG", "key": "TopicA", "value": "broker-a:4"}}, catAdminKey, catAdminSecret)
	for _, req := range []*remoting.Command{wipe, put} {
		if code, remark := invokeCode(t, c, survivors(ps, leader)[0].ClientAddr, req); code != remoting.Success {
			t.Fatalf("signed request %d: %d %s", req.Code, code, remark)
		}
	}
	ctl := func(via *proc, args ...string) {
		t.Helper()
		args = append([]string{"--addr", via.HTTPAddr, "--token-file", tokenFile}, args...)
		if out, err := exec.Command(raftnsctlBinary(t), args...).CombinedOutput(); err != nil {
			t.Fatalf("raftnsctl %v: %v\n%s", args, err, out)
		}
	}
	ctl(survivors(ps, leader)[0], "leader", "transfer")
	leader = leaderOf(t, ps)
	// The backup is taken once the broker has expired, so that the restore
	// brings back no broker to expire again.
	poll.For(t, 30*time.Second, "the silent broker's expiry", func() bool {
		trail, ok := trailOf(t, leader)
		return ok && strings.Contains(fmt.Sprint(trail), state.AuditBrokerExpiry)
	})
	backup := filepath.Join(t.TempDir(), "backup.snap")
	follower := survivors(ps, leader)[0]
	ctl(follower, "snapshot", "save", backup)
	ctl(follower, "snapshot", "restore", backup)
	var trail []adminapi.AuditRecord
	poll.For(t, 20*time.Second, "the restore's record", func() bool {
		var ok bool
		trail, ok = trailOf(t, leader)
		return ok && strings.Contains(fmt.Sprint(trail), state.AuditSnapshotRestore)
	})
	return trail
}

// wantCallers checks who made each change, from where, and that a member
// of ps took it.
func wantCallers(t *testing.T, ps []*proc, trail []adminapi.AuditRecord) {
	t.Helper()
	trail = withoutSeeds(trail)
	// A request a follower proxied to the leader keeps the caller's
	// address without its port.
	members := map[string]bool{}
	for _, p := range ps {
		members[p.ID] = true
	}
	local := func(r adminapi.AuditRecord) bool {
		host, _, _ := strings.Cut(r.From, ":")
		return host == "127.0.0.1" && members[r.Via]
	}
	for _, kind := range []string{state.AuditWipeWritePerm, state.AuditPutKV} {
		if r := recordOf(t, trail, kind); r.Who != catAdminKey || !local(r) || r.Outcome != state.OutcomeApplied {
			t.Fatalf("%s record = %+v", kind, r)
		}
	}
	for _, kind := range []string{state.AuditLeaderTransfer, state.AuditSnapshotRestore} {
		if r := recordOf(t, trail, kind); r.Who != "admin-token" || !local(r) || r.Outcome != state.OutcomeApplied {
			t.Fatalf("%s record = %+v", kind, r)
		}
	}
	if r := recordOf(t, trail, state.AuditBrokerExpiry); r.Who != "raftns" || r.Broker != "broker-a" {
		t.Fatalf("expiry record = %+v", r)
	}
	if n := len(trail); n != 5 {
		t.Fatalf("%d records, want one of each kind: %+v", n, trail)
	}
}

// TestProcess_AuditTrailIsTheSameOnEveryMemberAfterALeaderKillAndARestart
// has real callers make each kind of change on three members, then reads
// the same trail from every member, from the survivors after the leader
// is killed, and from the killed member once it restarts from its
// snapshot.
func TestProcess_AuditTrailIsTheSameOnEveryMemberAfterALeaderKillAndARestart(t *testing.T) {
	_, tokenFile, aclFile := catalogueFiles(t)
	ps := startCluster(t, 3, "--http-token-file", tokenFile, "--acl-mode", "writes", "--acl-file", aclFile,
		"--acl-broker-addrs", "127.0.0.1", "--broker-expiry", "4s", "--scan-interval", "200ms",
		"--snapshot-threshold", "1", "--snapshot-interval", "100ms", "--trailing-logs", "1")
	trail := auditedChanges(t, ps, tokenFile)
	wantCallers(t, ps, trail)
	wantTrail(t, ps, trail, "after the changes")

	leader := leaderOf(t, ps)
	last := trail[len(trail)-1].Index
	poll.For(t, 20*time.Second, "a snapshot of the whole trail on "+leader.ID, func() bool {
		return snapshotHolds(leader, snapshotTaken, last)
	})
	leader.Kill()
	rest := survivors(ps, leader)
	leaderOf(t, rest)
	wantTrail(t, rest, trail, "after the leader was killed")

	leader.start()
	leader.waitReady()
	if !snapshotHolds(leader, snapshotRestored, last) {
		t.Fatalf("%s did not restart from a snapshot of the whole trail:\n%s", leader.ID, leader.Log())
	}
	wantTrail(t, ps, trail, "after the killed member restarted")
}
