package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/launch"
	"github.com/raftns/raftns/internal/poll"
)

func survivors(ps []*proc, dead *proc) []*proc {
	var out []*proc
	for _, p := range ps {
		if p != dead {
			out = append(out, p)
		}
	}
	return out
}

// TestProcess_AcknowledgedRegistrationsSurviveLeaderKill registers brokers
// through every member while the leader is killed with SIGKILL; every
// registration answered with success must be on every surviving member.
func TestProcess_AcknowledgedRegistrationsSurviveLeaderKill(t *testing.T) {
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	c := newClient(t)
	ctx := ctxT(t, 2*time.Minute)

	var mu sync.Mutex
	var acked []*nsclient.Registration
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				reg := brokerRegistration("c1", fmt.Sprintf("b-%d-%d", w, i), fmt.Sprintf("10.%d.%d.%d:10911", w, i/250, i%250), 0, 1, fmt.Sprintf("T-%d-%d", w, i))
				target := ps[rand.IntN(len(ps))]
				if _, err := c.RegisterBroker(ctx, target.ClientAddr, reg); err == nil {
					mu.Lock()
					acked = append(acked, reg)
					mu.Unlock()
				}
			}
		}(w)
	}
	poll.For(t, 30*time.Second, "some registrations before the kill", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(acked) >= 20
	})
	leader.Kill()
	rest := survivors(ps, leader)
	newLeader := leaderOf(t, rest)
	poll.For(t, 30*time.Second, "registrations after the failover", func() bool {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		reg := brokerRegistration("c1", "probe", "10.99.0.1:10911", 0, int64(n), "Probe")
		_, err := c.RegisterBroker(ctx, newLeader.ClientAddr, reg)
		return err == nil
	})
	close(stop)
	wg.Wait()
	t.Logf("%d registrations acknowledged around the leader kill", len(acked))
	for _, p := range rest {
		for _, reg := range acked {
			topic := reg.Body.TopicConfigs[0].TopicName
			poll.For(t, 20*time.Second, fmt.Sprintf("%s on %s", topic, p.ID), func() bool {
				route, err := c.GetRoute(ctx, p.ClientAddr, topic)
				return err == nil && len(route.BrokerDatas) == 1 && route.BrokerDatas[0].BrokerAddrs[0] == reg.BrokerAddr
			})
		}
	}
}

// TestProcess_RegistrationsThroughFollowerContinueAcrossLeaderChange keeps
// registering through one follower while the leader is killed, and bounds
// the time until registrations succeed again.
func TestProcess_RegistrationsThroughFollowerContinueAcrossLeaderChange(t *testing.T) {
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	follower := survivors(ps, leader)[0]
	c := newClient(t)
	ctx := ctxT(t, 2*time.Minute)
	counter := int64(0)
	registerOnce := func() error {
		counter++
		reg := brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, counter, "TopicA")
		_, err := c.RegisterBroker(ctx, follower.ClientAddr, reg)
		return err
	}
	if err := registerOnce(); err != nil {
		t.Fatalf("registration through follower before the change: %v", err)
	}
	leader.Kill()
	killed := time.Now()
	failures := 0
	for {
		err := registerOnce()
		if err == nil {
			break
		}
		failures++
		if time.Since(killed) > 20*time.Second {
			t.Fatalf("registrations through the follower still failing %v after the leader died: %v", time.Since(killed), err)
		}
	}
	t.Logf("first successful registration %v after the kill, %d failed attempts", time.Since(killed), failures)
	for i := 0; i < 20; i++ {
		if err := registerOnce(); err != nil {
			t.Fatalf("registration %d after the new leader: %v", i, err)
		}
	}
	dv, ok := 0, false
	for _, p := range survivors(ps, leader) {
		poll.For(t, 10*time.Second, "the last data version on "+p.ID, func() bool {
			changed, stored, err := c.QueryDataVersion(ctx, p.ClientAddr, "c1", "broker-a", "10.0.0.1:10911", 0, state.DataVersion{Timestamp: 1700000000000, Counter: counter})
			return err == nil && !changed && stored != nil
		})
		dv, ok = dv+1, true
	}
	if !ok || dv != 2 {
		t.Fatalf("checked %d survivors", dv)
	}
}

// TestProcess_KilledMemberRestartsAndCatchesUp kills a follower, writes
// more, restarts it from its data directory and expects the same routes.
func TestProcess_KilledMemberRestartsAndCatchesUp(t *testing.T) {
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	victim := survivors(ps, leader)[0]
	c := newClient(t)
	ctx := ctxT(t, 2*time.Minute)
	if _, err := c.RegisterBroker(ctx, leader.ClientAddr, brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "Before")); err != nil {
		t.Fatal(err)
	}
	victim.Kill()
	for i := 0; i < 30; i++ {
		reg := brokerRegistration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.1.%d:10911", i+1), 0, 1, fmt.Sprintf("After-%d", i))
		if _, err := c.RegisterBroker(ctx, leader.ClientAddr, reg); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.PutKV(ctx, leader.ClientAddr, "NS", "k", "v"); err != nil {
		t.Fatal(err)
	}
	victim.start()
	victim.waitReady()
	for _, topic := range []string{"Before", "After-0", "After-29"} {
		want, err := c.GetRoute(ctx, leader.ClientAddr, topic)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.GetRoute(ctx, victim.ClientAddr, topic)
		if err != nil {
			t.Fatalf("restarted member route %s: %v", topic, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("restarted member route %s = %+v, leader has %+v", topic, got, want)
		}
	}
	if v, err := c.GetKV(ctx, victim.ClientAddr, "NS", "k"); err != nil || v != "v" {
		t.Fatalf("restarted member KV = %q, %v", v, err)
	}
}

// TestProcess_GoClientReadsTheSameRouteFromEveryMember gives the real Go
// client the three-member list and each member alone.
func TestProcess_GoClientReadsTheSameRouteFromEveryMember(t *testing.T) {
	ps := startCluster(t, 3)
	c := newClient(t)
	ctx := ctxT(t, time.Minute)
	follower := survivors(ps, leaderOf(t, ps))[0]
	reg := brokerRegistration("DefaultCluster", "broker-a", "127.0.0.1:10911", 0, 1, "TopicTest")
	if _, err := c.RegisterBroker(ctx, follower.ClientAddr, reg); err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, p := range ps {
		all = append(all, p.ClientAddr)
	}
	lists := append([][]string{all}, []string{ps[0].ClientAddr}, []string{ps[1].ClientAddr}, []string{ps[2].ClientAddr})
	for _, addrs := range lists {
		adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver(addrs)))
		if err != nil {
			t.Fatal(err)
		}
		poll.For(t, 10*time.Second, fmt.Sprintf("the route from %v", addrs), func() bool {
			queues, err := adm.FetchPublishMessageQueues(ctx, "TopicTest")
			return err == nil && len(queues) == 4 && queues[0].BrokerName == "broker-a"
		})
		adm.Close()
	}
}

// TestProcess_SIGTERMOnLeaderHandsLeadershipOver stops the leader
// gracefully: it exits 0 after transferring leadership, and writes go on.
func TestProcess_SIGTERMOnLeaderHandsLeadershipOver(t *testing.T) {
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	leader.terminate()
	if code := leader.ExitCode(); code != 0 {
		t.Fatalf("exit code after SIGTERM = %d, want 0", code)
	}
	if !strings.Contains(leader.Log(), "leadership transfer") {
		t.Fatalf("leader log shows no leadership transfer:\n%s", leader.Log())
	}
	rest := survivors(ps, leader)
	next := leaderOf(t, rest)
	c := newClient(t)
	if _, err := c.RegisterBroker(ctxT(t, 30*time.Second), next.ClientAddr, brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "T")); err != nil {
		t.Fatal(err)
	}
}

// TestProcess_QuorumLossRecoveryFromPeersFile loses two of three members for
// good and recovers the survivor alone from peers.json.
func TestProcess_QuorumLossRecoveryFromPeersFile(t *testing.T) {
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	c := newClient(t)
	ctx := ctxT(t, time.Minute)
	if _, err := c.RegisterBroker(ctx, leader.ClientAddr, brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "Kept")); err != nil {
		t.Fatal(err)
	}
	survivor := survivors(ps, leader)[0]
	poll.For(t, 10*time.Second, "the survivor to have the route", func() bool {
		_, err := c.GetRoute(ctx, survivor.ClientAddr, "Kept")
		return err == nil
	})
	for _, p := range ps {
		p.Kill()
	}
	peers := fmt.Sprintf(`[{"id":%q,"address":%q,"non_voter":false}]`, survivor.ID, survivor.ClusterAddr)
	if err := os.WriteFile(filepath.Join(survivor.DataDir, "raft", "peers.json"), []byte(peers), 0o644); err != nil {
		t.Fatal(err)
	}
	survivor.start()
	survivor.waitReady()
	if _, err := os.Stat(filepath.Join(survivor.DataDir, "raft", "peers.info")); err != nil {
		t.Fatalf("peers.json not renamed after recovery: %v", err)
	}
	if _, err := c.GetRoute(ctx, survivor.ClientAddr, "Kept"); err != nil {
		t.Fatalf("route after recovery: %v", err)
	}
	if _, err := c.RegisterBroker(ctx, survivor.ClientAddr, brokerRegistration("c1", "broker-b", "10.0.0.2:10911", 0, 1, "New")); err != nil {
		t.Fatalf("write after recovery: %v", err)
	}
}

// TestProcess_FourthMemberAddedAndRemovedWithRaftnsctl adds a member with
// "raftnsctl peers add" sent to a follower (which passes it to the leader),
// checks it serves the same routes and is listed by every member's address
// service, then removes it with a drain: every member stops listing it at
// once while it still serves; once out, the member, still running, says it
// was removed and refuses client requests with a remark.
func TestProcess_FourthMemberAddedAndRemovedWithRaftnsctl(t *testing.T) {
	ps := startCluster(t, 3)
	leader := leaderOf(t, ps)
	follower := survivors(ps, leader)[0]
	c := newClient(t)
	ctx := ctxT(t, 2*time.Minute)
	reg := brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "TopicA")
	if _, err := c.RegisterBroker(ctx, follower.ClientAddr, reg); err != nil {
		t.Fatal(err)
	}
	allowDrains(t, follower)
	n4 := newProc(t, "n4", "--bootstrap=false")
	n4.start()
	// The leader asks a new member its release before adding it.
	poll.For(t, 30*time.Second, "n4 listening", func() bool { return strings.Contains(n4.Log(), "raftns member started") })
	ctl := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(raftnsctlBinary(t), append([]string{"--addr", follower.HTTPAddr}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("raftnsctl %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := ctl("peers", "add", "n4", n4.ClusterAddr); !strings.Contains(out, "non-voter") {
		t.Fatalf("peers add said %q", out)
	}
	n4.waitReady()
	poll.For(t, 30*time.Second, "n4 promoted to voter", func() bool {
		return strings.Contains(ctl("-o", "json", "peers", "list"), `"id": "n4"`) &&
			regexpVoter.MatchString(ctl("-o", "json", "peers", "list"))
	})
	want, err := c.GetRoute(ctx, leader.ClientAddr, "TopicA")
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetRoute(ctx, n4.ClientAddr, "TopicA")
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("n4 route = %+v, %v; want %+v", got, err, want)
	}
	all := append(append([]*proc{}, ps...), n4)
	wantAddressService(t, all, all)

	remove := exec.Command(raftnsctlBinary(t), "--addr", follower.HTTPAddr, "peers", "remove", "--drain", "10s", "n4")
	var out strings.Builder
	remove.Stdout, remove.Stderr = &out, &out
	if err := remove.Start(); err != nil {
		t.Fatal(err)
	}
	wantAddressService(t, all, ps)
	if _, err := c.GetRoute(ctx, n4.ClientAddr, "TopicA"); err != nil {
		t.Fatalf("n4 stopped serving while it drains: %v", err)
	}
	if err := remove.Wait(); err != nil || !strings.Contains(out.String(), "peer n4: draining for 10s") ||
		!strings.HasSuffix(out.String(), "peer n4: removed\n") {
		t.Fatalf("raftnsctl peers remove: %v\n%s", err, out.String())
	}
	wantRemoved(t, c, n4, "TopicA")
	wantAddressService(t, ps, ps)
}

var regexpVoter = regexp.MustCompile(`"id": "n4",\s*"address": "[^"]+",\s*"suffrage": "Voter"`)

var (
	ctlOnce sync.Once
	ctlPath string
	ctlErr  error
)

func raftnsctlBinary(t *testing.T) string {
	t.Helper()
	raftnsBinary(t) // creates binaryDir
	ctlOnce.Do(func() {
		ctlPath = filepath.Join(binaryDir, "raftnsctl")
		ctlErr = launch.BuildCommand(ctlPath, "../raftnsctl")
	})
	if ctlErr != nil {
		t.Fatal(ctlErr)
	}
	return ctlPath
}
