package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/namesrv"
)

// zonesMaxStale is the members' --max-stale here: long enough that a
// zone-b member still serves reads the moment after two voters stop.
const zonesMaxStale = "20s"

// addressServiceFor asks p's admin port for GET /rocketmq/SUBGROUP.
func addressServiceFor(p *proc, subgroup string) (int, string) {
	resp, err := p.Get(context.Background(), "/rocketmq/"+subgroup)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// startTwoZones starts three voters in zone a and adds two non-voters in
// zone b with raftnsctl peers add --non-voter; it returns the voters and
// the non-voters.
func startTwoZones(t *testing.T) (voters, readers []*proc) {
	t.Helper()
	voters = startCluster(t, 3, "--zone", "a", "--max-stale", zonesMaxStale)
	ctl := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(raftnsctlBinary(t), append([]string{"--addr", voters[0].HTTPAddr}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("raftnsctl %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	for _, id := range []string{"b1", "b2"} {
		p := newProc(t, id, "--bootstrap=false", "--zone", "b", "--max-stale", zonesMaxStale)
		p.start()
		poll.For(t, 30*time.Second, id+" listening", func() bool { return strings.Contains(p.Log(), "raftns member started") })
		ctl("peers", "add", "--non-voter", id, p.ClusterAddr)
		p.waitReady()
		// A new member never had a vote: whether or not the leader has
		// recorded its storage identity yet, it is not awaiting re-admission.
		if got := peerByID(t, voters[0], id); got.Stage == adminapi.StageAwaiting {
			t.Fatalf("%s, new and ready, is listed as %+v", id, got)
		}
		readers = append(readers, p)
	}
	return voters, readers
}

// peerByID returns the member id as p's /v1/peers lists it.
func peerByID(t *testing.T, p *proc, id string) adminapi.PeerStatus {
	t.Helper()
	peers, err := peersOf(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, ps := range peers {
		if ps.ID == id {
			return ps
		}
	}
	return adminapi.PeerStatus{}
}

// TestProcess_TwoZonesVotersInAReadersInB runs three voters in zone a and
// two non-voters in zone b (docs/operators/operations.md, "Several zones"):
// all five hold the same routes, nsaddr-b lists the zone-b members first on
// every member, a write through a zone-b member shows in that member's very
// next read, and once two voters stop, zone b keeps serving reads while it
// refuses writes with the documented remark, changing nothing.
func TestProcess_TwoZonesVotersInAReadersInB(t *testing.T) {
	voters, readers := startTwoZones(t)
	all := append(append([]*proc{}, voters...), readers...)
	c := newClient(t)
	ctx := ctxT(t, 3*time.Minute)

	// Every member lists zone b's members first for nsaddr-b, and the
	// voters alone for plain nsaddr.
	wantB := strings.Join([]string{readers[0].ClientAddr, readers[1].ClientAddr, voters[0].ClientAddr,
		voters[1].ClientAddr, voters[2].ClientAddr}, ";")
	wantPlain := strings.Join([]string{voters[0].ClientAddr, voters[1].ClientAddr, voters[2].ClientAddr}, ";")
	poll.For(t, 30*time.Second, "nsaddr-b and nsaddr on every member", func() bool {
		for _, p := range all {
			codeB, bodyB := addressServiceFor(p, "nsaddr-b")
			code, body := addressServiceFor(p, "nsaddr")
			if codeB != http.StatusOK || bodyB != wantB || code != http.StatusOK || body != wantPlain {
				return false
			}
		}
		return true
	})
	out, err := exec.Command(raftnsctlBinary(t), "--addr", readers[0].HTTPAddr, "peers", "list").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ZONE") || !strings.Contains(string(out), "warning: losing zone a (3 of 3 voters)") {
		t.Fatalf("peers list through b1: %v\n%s", err, out)
	}

	// Writes through a zone-b member: each shows in its next read there.
	for i := range 20 {
		reg := brokerRegistration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i+1), 0, 1, fmt.Sprintf("Topic%d", i))
		via := readers[i%2]
		if _, err := c.RegisterBroker(ctx, via.ClientAddr, reg); err != nil {
			t.Fatalf("register through %s: %v", via.ID, err)
		}
		route, err := c.GetRoute(ctx, via.ClientAddr, fmt.Sprintf("Topic%d", i))
		if err != nil || len(route.BrokerDatas) != 1 {
			t.Fatalf("%s's next read of Topic%d = %+v, %v", via.ID, i, route, err)
		}
		key := fmt.Sprintf("k%d", i)
		if err := c.PutKV(ctx, via.ClientAddr, "zones", key, "v"); err != nil {
			t.Fatalf("put through %s: %v", via.ID, err)
		}
		if v, err := c.GetKV(ctx, via.ClientAddr, "zones", key); err != nil || v != "v" {
			t.Fatalf("%s's next read of %s = %q, %v", via.ID, key, v, err)
		}
	}
	// The same routes on all five.
	poll.For(t, 30*time.Second, "the same routes on all five members", func() bool {
		for i := range 20 {
			var first string
			for j, p := range all {
				route, err := c.GetRoute(ctx, p.ClientAddr, fmt.Sprintf("Topic%d", i))
				if err != nil {
					return false
				}
				if s := fmt.Sprint(route); j == 0 {
					first = s
				} else if s != first {
					return false
				}
			}
		}
		return true
	})
	for _, p := range all {
		for _, r := range readers {
			if got := peerByID(t, p, r.ID); got.Suffrage != "Nonvoter" || got.Leader || got.Zone != "b" {
				t.Fatalf("%s lists %s as %+v, want a non-voter in zone b", p.ID, r.ID, got)
			}
		}
	}

	// Two voters stop: zone b still answers reads and refuses writes.
	leader := leaderOf(t, voters)
	for _, v := range survivors(voters, leader)[:1] {
		v.Kill()
	}
	leader.Kill()
	for _, r := range readers {
		if _, err := c.GetRoute(ctx, r.ClientAddr, "Topic0"); err != nil {
			t.Fatalf("%s stopped serving reads the moment two voters stopped: %v", r.ID, err)
		}
	}
	poll.For(t, 30*time.Second, "no member to report a leader", func() bool {
		for _, p := range append(survivors(voters, leader)[1:], readers...) {
			if st, ok := p.status(); !ok || st.LeaderID != "" {
				return false
			}
		}
		return true
	})
	reg := brokerRegistration("c1", "broker-late", "10.0.0.99:10911", 0, 1, "TopicLate")
	_, err = c.RegisterBroker(ctx, readers[0].ClientAddr, reg)
	if err == nil || !strings.Contains(err.Error(), strings.TrimSuffix(namesrv.RemarkNotApplied, " retry another name server: ")) {
		t.Fatalf("a write through b1 without a quorum = %v, want the remark %q", err, namesrv.RemarkNotApplied)
	}
	if err := c.PutKV(ctx, readers[1].ClientAddr, "zones", "late", "v"); err == nil {
		t.Fatal("a KV write through b2 without a quorum succeeded")
	}
	// Reads go on while within max stale; the refused write changed nothing.
	if st, ok := readers[0].status(); ok && st.Ready {
		if route, err := c.GetRoute(ctx, readers[0].ClientAddr, "TopicLate"); err == nil {
			t.Fatalf("the refused write shows: %+v", route)
		}
	}
	// Past max stale the zone-b members stop serving reads.
	poll.For(t, time.Minute, "b1 and b2 unready past max stale", func() bool {
		for _, r := range readers {
			if st, ok := r.status(); !ok || st.Ready {
				return false
			}
		}
		return true
	})
}
