package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
)

// TestProcess_RemovedMemberRestartedFromItsCommandLineIsAddedBack removes a
// member and restarts it from the command line it always had (--peers).
// On its old data it finds itself removed, and "peers add" says so and
// leaves the configuration as it was. On an emptied data dir it neither
// forms a cluster nor votes: "peers add" succeeds, and it becomes a voter
// that serves routes.
func TestProcess_RemovedMemberRestartedFromItsCommandLineIsAddedBack(t *testing.T) {
	ps := startCluster(t, 3, "--promote-after", "1s")
	leader := leaderOf(t, ps)
	n := survivors(ps, leader)[0]
	via := survivors(ps, leader)[1]
	c := newClient(t)
	ctx := ctxT(t, 3*time.Minute)
	reg := brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "TopicA")
	if _, err := c.RegisterBroker(ctx, leader.ClientAddr, reg); err != nil {
		t.Fatal(err)
	}
	removeVia(t, via, n.ID, 0)
	wantRemoved(t, c, n, "TopicA")
	ctl := func(args ...string) (string, error) {
		out, err := exec.Command(raftnsctlBinary(t), append([]string{"--addr", via.HTTPAddr}, args...)...).CombinedOutput()
		return string(out), err
	}

	// Restarted on its old data: it is removed, and adding it fails.
	n.Kill()
	n.start()
	poll.For(t, time.Minute, n.ID+" finding itself removed again", func() bool {
		st, ok := n.status()
		return ok && st.Membership == adminapi.MembershipRemoved
	})
	out, err := ctl("peers", "add", n.ID, n.ClusterAddr)
	if err == nil || !strings.Contains(out, "data of a removed member") {
		t.Fatalf("peers add of a member on the data of a removed member: %v\n%s", err, out)
	}
	poll.For(t, 30*time.Second, n.ID+" out of the configuration again", func() bool {
		peers, err := peersOf(ctx, via)
		return err == nil && len(peers) == 2
	})

	// Restarted on an emptied data dir from the same command line: it
	// waits, and adding it succeeds once it runs.
	n.Kill()
	if err := os.RemoveAll(n.DataDir); err != nil {
		t.Fatal(err)
	}
	n.start()
	// A member that formed a cluster of its own would hold its bootstrap
	// entry (LastIndex 1) and not be awaiting.
	poll.For(t, time.Minute, n.ID+" waiting to be added", func() bool {
		st, ok := n.status()
		return ok && st.Admission == adminapi.AdmissionAwaiting && st.LastIndex == 0
	})
	out, err = ctl("peers", "add", n.ID, n.ClusterAddr)
	if err != nil || !strings.Contains(out, "added as non-voter") {
		t.Fatalf("peers add: %v\n%s", err, out)
	}
	poll.For(t, time.Minute, n.ID+" a voter that votes", func() bool {
		st, ok := n.status()
		if !ok || !st.Ready || st.Admission != adminapi.AdmissionAdmitted {
			return false
		}
		peers, err := peersOf(ctx, via)
		if err != nil || len(peers) != 3 {
			return false
		}
		for _, p := range peers {
			if p.ID == n.ID {
				return p.Suffrage == "Voter" && p.Stage == adminapi.StageVoter && p.StorageID == st.StorageID &&
					p.RecordedStorageID == st.StorageID
			}
		}
		return false
	})
	want, err := c.GetRoute(ctx, leader.ClientAddr, "TopicA")
	if err != nil {
		t.Fatal(err)
	}
	poll.For(t, 30*time.Second, n.ID+" serving the route", func() bool {
		got, err := c.GetRoute(ctx, n.ClientAddr, "TopicA")
		return err == nil && fmt.Sprint(got) == fmt.Sprint(want)
	})
}
