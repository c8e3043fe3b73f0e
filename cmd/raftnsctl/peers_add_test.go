package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
)

// startCtl runs raftnsctl in the background; the result arrives on the
// channel.
func startCtl(t *testing.T, args ...string) <-chan result {
	ch := make(chan result, 1)
	go func() { ch <- ctl(t, args...) }()
	return ch
}

const silentAnswer = `{"error":"cluster: the member's release is unknown: member ns-4 at 10.0.0.4:9866 did not answer",` +
	`"reason":"member-not-answering"}`

func TestPeersAdd_AsksAgainWhileTheMemberDoesNotAnswer(t *testing.T) {
	const added = `{"result":"added as non-voter; promoted once caught up"}`
	f := newFakeAdmin(t, 418, "unexpected request").on("GET", "/v1/peers", 200, "[]").on("POST", "/v1/peers", 409, silentAnswer)
	done := startCtl(t, "--addr", f.addr(), "peers", "add", "ns-4", "10.0.0.4:9866", "--wait", "1m")
	poll.For(t, 10*time.Second, "a refused POST /v1/peers", func() bool { return len(f.requests()) >= 2 })
	f.on("POST", "/v1/peers", 200, added) // the member has started
	r := <-done
	if r.code != 0 || r.stdout != "peer ns-4 (10.0.0.4:9866): added as non-voter; promoted once caught up\n" ||
		!strings.Contains(r.stderr, "peer ns-4 (10.0.0.4:9866) does not answer yet; asking again for up to 1m0s") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if posts := len(f.requests()) - 1; posts < 2 {
		t.Fatalf("%d POST /v1/peers, want the refused one and the one that added", posts)
	}
}

func TestPeersAdd_GivesUpAfterTheWait(t *testing.T) {
	for _, tc := range []struct {
		wait      string
		wantPosts int // 0: more than one
		wantErr   string
	}{
		{"0s", 1, "raftnsctl: cluster: the member's release is unknown: member ns-4 at 10.0.0.4:9866 did not answer (HTTP 409)\n"},
		{"600ms", 0, "raftnsctl: still refused after waiting 600ms: cluster: the member's release is unknown"},
	} {
		f := newFakeAdmin(t, 418, "unexpected request").on("GET", "/v1/peers", 200, "[]").on("POST", "/v1/peers", 409, silentAnswer)
		r := ctl(t, "--addr", f.addr(), "peers", "add", "ns-4", "10.0.0.4:9866", "--wait", tc.wait).mustFail(t, 1, tc.wantErr)
		posts := len(f.requests()) - 1
		if (tc.wantPosts > 0 && posts != tc.wantPosts) || (tc.wantPosts == 0 && posts < 2) || r.stdout != "" {
			t.Fatalf("--wait %s: %d POST /v1/peers, stdout %q", tc.wait, posts, r.stdout)
		}
	}
	ctl(t, "peers", "add", "ns-4", "10.0.0.4:9866", "--wait", "-1s").mustFail(t, 2, "--wait -1s: want 0s to 10m0s")
}

// Once the cluster version is raised, a member is added only when it says
// its release. An operator who runs "peers add" and then starts the member
// gets it added: raftnsctl asks again until the member answers.
func TestPeersAdd_RealMemberStartedAfterTheAdd(t *testing.T) {
	dir := t.TempDir()
	n1 := must(launch.NewMember(member.Binary, "n1", filepath.Join(dir, "n1")))
	n2 := must(launch.NewMember(member.Binary, "n2", filepath.Join(dir, "n2")))
	n2.Args = []string{"--bootstrap=false"}
	for _, m := range []*launch.Member{n1, n2} {
		m.DieWithParent = true
		m.LogFile = filepath.Join(dir, m.ID+".log")
		t.Cleanup(func() { m.Stop(5 * time.Second) })
	}
	if err := n1.Start(); err != nil {
		t.Fatal(err)
	}
	if err := n1.WaitReady(context.Background(), 60*time.Second); err != nil {
		t.Fatal(err)
	}
	ctl(t, "--addr", n1.HTTPAddr, "upgrade", "finalize").mustSucceed(t)
	done := startCtl(t, "--addr", n1.HTTPAddr, "peers", "add", "n2", n2.ClusterAddr, "--wait", "2m")
	poll.For(t, 30*time.Second, "peers add to be refused once", func() bool { return refusedAdds(n1) > 0 })
	if err := n2.Start(); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.code != 0 || !strings.HasPrefix(r.stdout, "peer n2 ("+n2.ClusterAddr+"): added") {
		t.Fatalf("peers add: exit %d, stdout %q, stderr %q\nn1 log:\n%s", r.code, r.stdout, r.stderr, n1.Log())
	}
	poll.For(t, 60*time.Second, "n2 to follow n1", func() bool {
		st, err := n2.Status(context.Background())
		return err == nil && st.LeaderID == "n1"
	})
}

// refusedAdds counts the failed member additions in m's audit trail.
func refusedAdds(m *launch.Member) int {
	resp, err := m.Get(context.Background(), "/v1/audit?kind=member-add")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	var page adminapi.AuditPage
	if json.NewDecoder(resp.Body).Decode(&page) != nil {
		return 0
	}
	n := 0
	for _, r := range page.Records {
		if strings.HasPrefix(r.Outcome, "failed: ") {
			n++
		}
	}
	return n
}
