package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

func TestCluster_WriteThroughFollowerIsForwardedAndReplicated(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	f := tc.followers()[0]
	master := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	register(t, f, master)
	slave := registration("c1", "broker-a", "10.0.0.2:10911", 1, 1)
	res := register(t, f, slave)
	if res.MasterAddr != master.BrokerAddr || res.HaServerAddr != master.HaServerAddr {
		t.Fatalf("slave answer = %+v, want master %s ha %s", res, master.BrokerAddr, master.HaServerAddr)
	}
	ctx := context.Background()
	out, err := f.node.Apply(ctx, fsm.WipeWritePermType, &state.WipeWritePerm{BrokerName: "broker-a"})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(state.WritePermResult).TopicCount; got != 2 {
		t.Fatalf("wipe count through follower = %d, want 2", got)
	}
	tc.waitSame()
	for _, m := range tc.running() {
		route, ok := m.node.FSM().Route("Shared", false)
		if !ok || len(route.BrokerDatas) != 1 || len(route.BrokerDatas[0].BrokerAddrs) != 2 {
			t.Fatalf("%s route = %+v, %v; want one group with master and slave", m.id, route, ok)
		}
		if route.QueueDatas[0].Perm != 4 {
			t.Fatalf("%s perm = %d, want 4 after wipe", m.id, route.QueueDatas[0].Perm)
		}
	}
	if got := f.node.Stats().ForwardedOut.Load(); got < 3 {
		t.Fatalf("forwarded = %d, want at least 3", got)
	}
}

func TestCluster_SteadyStateReRegistrationsWriteNoEntries(t *testing.T) {
	const brokers = 100
	tc := newTestCluster(t, 3, nil)
	members := tc.running()
	var cmds []*state.RegisterBroker
	for i := 0; i < brokers; i++ {
		cmd := registration("c1", fmt.Sprintf("broker-%03d", i), fmt.Sprintf("10.0.%d.%d:10911", i/250, i%250), 0, 1)
		cmds = append(cmds, cmd)
		register(t, members[i%len(members)], cmd)
	}
	leader := tc.waitLeaderReady()
	tc.waitApplied(leader.node.Raft().LastIndex())
	before := leader.node.Raft().LastIndex()
	written := leader.node.Stats().RegistersWritten.Load()

	// Three periods: every broker re-registers, unchanged, with every member,
	// as brokers do with each address of their namesrvAddr list.
	for round := 0; round < 3; round++ {
		for _, cmd := range cmds {
			for _, m := range members {
				register(t, m, cmd)
			}
		}
	}
	if n := commandsAfter(leader, before); n != 0 {
		t.Fatalf("%d commands written after index %d during steady-state re-registrations", n, before)
	}
	if got := leader.node.Stats().RegistersWritten.Load(); got != written {
		t.Fatalf("registrations written %d -> %d, want none", written, got)
	}
	var deduped uint64
	for _, m := range members {
		deduped += m.node.Stats().RegistersDeduped.Load()
	}
	if deduped < 3*3*brokers {
		t.Fatalf("deduped = %d, want at least %d", deduped, 3*3*brokers)
	}
}

func TestCluster_SilentBrokerExpiresAfterTTLPlusScan(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) { c.BrokerExpiry = time.Second })
	tc.waitLeaderReady()
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	start := time.Now()
	register(t, tc.followers()[0], cmd)
	// The expiry is watched for as the leader's committed decision: a
	// member lacking the broker may not have applied its registration yet
	// (one that lost office under load, for instance).
	poll.For(t, 10*time.Second, "the silent broker to expire", func() bool { return expirations(tc) > 0 })
	elapsed := time.Since(start)
	if elapsed < time.Second {
		t.Fatalf("expired after %v, before its TTL of 1s", elapsed)
	}
	tc.waitSame()
	for _, m := range tc.running() {
		if registered(m, cmd) {
			t.Fatalf("%s still has the expired broker", m.id)
		}
		if _, ok := m.node.FSM().Route("Shared", false); ok {
			t.Fatalf("%s still routes the expired broker's topic", m.id)
		}
	}
	if got := expirations(tc); got != 1 {
		t.Fatalf("expirations over all members = %d, want 1", got)
	}
}

// expirations counts the brokers expired by every running member: whoever
// led when a TTL ran out expired it, and on a loaded machine the harness's
// 100 ms Raft timers can elect another leader meanwhile.
func expirations(tc *testCluster) uint64 {
	var n uint64
	for _, m := range tc.running() {
		n += m.node.Stats().Expirations.Load()
	}
	return n
}

func TestCluster_HeartbeatsThroughFollowersKeepBrokersAlive(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) { c.BrokerExpiry = 500 * time.Millisecond })
	f := tc.followers()[0]
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	register(t, f, cmd)
	leader := tc.waitLeaderReady()
	tc.waitApplied(leader.node.Raft().LastIndex())
	until := time.Now().Add(2 * time.Second)
	for time.Now().Before(until) {
		if !f.node.Heartbeat(cmd.Key()) {
			t.Fatal("heartbeat for a registered broker reported unknown")
		}
		if !registered(leader, cmd) {
			t.Fatal("a broker heartbeating through a follower expired")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestCluster_LeaderFailoverKeepsBrokersAndExpiresNoneEarly(t *testing.T) {
	const ttl = 1500 * time.Millisecond
	tc := newTestCluster(t, 3, func(c *Config) { c.BrokerExpiry = ttl })
	leader := tc.waitLeaderReady()
	var alive []*state.RegisterBroker
	for i := 0; i < 5; i++ {
		cmd := registration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i+1), 0, 1)
		register(t, leader, cmd)
		alive = append(alive, cmd)
	}
	silent := registration("c1", "broker-silent", "10.0.1.1:10911", 0, 1)
	register(t, leader, silent)
	tc.waitApplied(leader.node.Raft().LastIndex())

	killed := time.Now()
	tc.stop(leader)
	var expiredAt time.Time
	deadline := killed.Add(3 * ttl)
	for time.Now().Before(deadline) {
		for _, m := range tc.running() {
			for _, cmd := range alive {
				m.node.Heartbeat(cmd.Key())
			}
		}
		for _, m := range tc.running() {
			for _, cmd := range alive {
				if !registered(m, cmd) {
					t.Fatalf("%s lost live broker %s after the failover", m.id, cmd.BrokerAddr)
				}
			}
			if expiredAt.IsZero() && !registered(m, silent) {
				expiredAt = time.Now()
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if expiredAt.IsZero() {
		t.Fatalf("silent broker not expired within %v of the failover", 3*ttl)
	}
	if early := expiredAt.Sub(killed); early < ttl {
		t.Fatalf("silent broker expired %v after the leader died, before its TTL %v", early, ttl)
	}
}

func TestCluster_PartitionedOldLeaderExpiresNothing(t *testing.T) {
	// Slow Raft timers keep the isolated leader in office long enough to
	// see the broker's TTL pass while it cannot reach a quorum.
	tc := newTestCluster(t, 3, func(c *Config) {
		c.RaftConfig.HeartbeatTimeout = 1500 * time.Millisecond
		c.RaftConfig.ElectionTimeout = 1500 * time.Millisecond
		c.RaftConfig.LeaderLeaseTimeout = 1500 * time.Millisecond
		c.BrokerExpiry = 300 * time.Millisecond
		c.ScanInterval = 50 * time.Millisecond
	})
	old := tc.waitLeaderReady()
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	register(t, old, cmd)
	tc.waitApplied(old.node.Raft().LastIndex())

	tc.partition(old)
	// Housekeeping entries appended just before the cut may still commit
	// and apply after it: a follower's acknowledgement already on its way
	// moves the isolated leader's commit index after the cut. No entry it
	// appends after the cut can commit: that is what must stay nothing.
	lastBefore := old.node.Raft().LastIndex()
	var newLeader *testMember
	poll.For(t, 15*time.Second, "a new leader on the majority side", func() bool {
		for _, m := range tc.running() {
			if m != old && m.node.LeaderReady() {
				newLeader = m
				return true
			}
		}
		return false
	})
	if applied := old.node.FSM().AppliedIndex(); applied > lastBefore {
		t.Fatalf("isolated leader applied entries up to %d, beyond the %d it held when cut off", applied, lastBefore)
	}
	if got := old.node.Stats().Expirations.Load(); got != 0 {
		t.Fatalf("isolated leader expired %d brokers", got)
	}
	if !registered(newLeader, cmd) {
		t.Fatal("the majority lost the broker the isolated leader considered silent")
	}
}

func TestCluster_LeadershipRegainedRerunsSetup(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	m := tc.waitLeaderReady()
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	register(t, m, cmd)
	first := m.node.lessor.Epoch()

	m.node.tenure.notify <- true // Raft's "true after true": lost and regained
	poll.For(t, 5*time.Second, "a new term of office with a new liveness table", func() bool {
		epoch := m.node.lessor.Epoch()
		return epoch != 0 && epoch != first && m.node.LeaderReady()
	})
	ago, ok := m.node.lessor.LastSeenAgo(cmd.Key())
	if !ok || ago > time.Second {
		t.Fatalf("after re-establishing, broker last seen %v ago (known %v), want just now", ago, ok)
	}
}

func TestCluster_RestartedFollowerUnreadyUntilCaughtUp(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	f := tc.followers()[0]
	tc.stop(f)
	for i := 0; i < 50; i++ {
		register(t, leader, registration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i+1), 0, 1))
	}
	target := leader.node.Raft().LastIndex()
	tc.start(f, nil)
	if ready, reason := f.node.Ready(); ready {
		t.Fatal("restarted follower ready before hearing from the leader")
	} else if reason == "" {
		t.Fatal("unready without a reason")
	}
	poll.For(t, 10*time.Second, "the restarted follower to become ready", func() bool {
		ready, _ := f.node.Ready()
		return ready
	})
	if got := f.node.FSM().AppliedIndex(); got < target {
		t.Fatalf("ready at applied index %d, before the leader's %d", got, target)
	}
	tc.waitSame()
}

func TestCluster_JoinAsNonvoterThenPromotion(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	register(t, leader, registration("c1", "broker-a", "10.0.0.1:10911", 0, 1))
	via := tc.followers()[0].addr
	m4 := tc.newMember("n4")
	tc.start(m4, func(c *Config) { c.Join = []string{via}; c.Bootstrap = false })
	sawNonvoter := false
	poll.For(t, 10*time.Second, "n4 promoted to voter", func() bool {
		switch suffrageOf(t, tc.waitLeaderReady(), "n4") {
		case raft.Nonvoter:
			sawNonvoter = true
		case raft.Voter:
			return true
		}
		return false
	})
	if !sawNonvoter {
		t.Fatal("n4 became a voter without first being a non-voter")
	}
	tc.waitSame()
	poll.For(t, 5*time.Second, "n4 in the member directory", func() bool {
		for _, mem := range m4.node.FSM().Members() {
			if mem.ID == "n4" && mem.ClusterAddr == m4.addr && mem.ClientAddr == "client-n4" {
				return true
			}
		}
		return false
	})
}

func TestCluster_RemoveLeader(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	old := tc.waitLeaderReady()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// The leader hands over leadership, then asks the new leader to remove
	// it. On a loaded machine, with every member running, the removal can
	// be refused without a change (ErrNoLeader: an election outlasted the
	// forward hold; ErrQuorumAtRisk: a voter's last contact with the leader
	// was late at that moment), or its outcome be unknown. It is asked for
	// again, as an operator would, of the leader when it is another member
	// (a refusal forwarded from it would come back as plain text), else of
	// another member: the old leader may already be out of the
	// configuration, hearing no leader. After an unknown outcome,
	// ErrUnknownMember says an earlier try removed it.
	ask, unknown := old, false
	err := poll.Until(ctx, 15*time.Second, 100*time.Millisecond, "the leader removed", func() (bool, error) {
		_, err := ask.node.RemovePeer(ctx, old.id, RemoveOptions{})
		switch {
		case err == nil, unknown && errors.Is(err, ErrUnknownMember):
			return true, nil
		case errors.Is(err, ErrOutcomeUnknown):
			unknown = true
		case !errors.Is(err, ErrNoLeader) && !errors.Is(err, ErrQuorumAtRisk):
			return false, err
		}
		t.Logf("remove leader through %s: %v; asking again", ask.id, err)
		ask = tc.running()[0]
		if ask == old {
			ask = tc.running()[1]
		}
		for _, m := range tc.running() {
			if m != old && m.node.IsLeader() {
				ask = m
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("remove leader: %v", err)
	}
	var newLeader *testMember
	poll.For(t, 10*time.Second, "a new leader without the old one", func() bool {
		for _, m := range tc.running() {
			if m != old && m.node.LeaderReady() {
				newLeader = m
				return true
			}
		}
		return false
	})
	poll.For(t, 10*time.Second, "the old leader out of the configuration", func() bool {
		return suffrageOf(t, newLeader, old.id) == -1
	})
	poll.For(t, 10*time.Second, "the removed member to become unready", func() bool {
		ready, _ := old.node.Ready()
		return !ready
	})
	register(t, newLeader, registration("c1", "broker-a", "10.0.0.1:10911", 0, 1))
}

func TestCluster_RemoveRefusesToBreakQuorum(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	allowDrains(t, tc)
	leader := tc.waitLeaderReady()
	fs := tc.followers()
	tc.stop(fs[0])
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// At once, or after a drain: the drain is refused up front.
	for _, drain := range []time.Duration{0, DefaultDrain} {
		_, err := leader.node.RemovePeer(ctx, fs[1].id, RemoveOptions{Drain: drain})
		if !errors.Is(err, ErrQuorumAtRisk) {
			t.Fatalf("removing a live voter while another is down (drain %v): %v, want ErrQuorumAtRisk", drain, err)
		}
		if suffrageOf(t, leader, fs[1].id) != raft.Voter || len(leader.node.FSM().DrainingMembers()) != 0 {
			t.Fatalf("refused removal (%v) changed the configuration or began a drain: suffrage %v, drains %+v",
				err, suffrageOf(t, leader, fs[1].id), leader.node.FSM().DrainingMembers())
		}
	}
}

func TestCluster_SnapshotRestoreEquality(t *testing.T) {
	// The brokers never heartbeat: with the harness's 2 s expiry a slow
	// convergence would see them expire after the restore and the digest
	// move on. Expiry is not what this test is about.
	tc := newTestCluster(t, 3, func(c *Config) { c.BrokerExpiry = time.Hour })
	// A backup of the baseline version would be raised back on restore.
	tc.waitRelease()
	leader := tc.waitLeaderReady()
	for i := 0; i < 10; i++ {
		register(t, leader, registration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i+1), 0, 1))
	}
	ctx := context.Background()
	if _, err := leader.node.Apply(ctx, fsm.PutKVType, &state.PutKV{Namespace: "ORDER_TOPIC_CONFIG", Key: "Shared", Value: "broker-1:4", HasValue: true}); err != nil {
		t.Fatal(err)
	}
	tc.waitSame()
	want := leader.node.FSM().Digest()
	var backup bytes.Buffer
	if _, err := leader.node.SaveSnapshot(&backup); err != nil {
		t.Fatalf("save: %v", err)
	}
	if _, err := leader.node.Apply(ctx, fsm.DeleteTopicType, &state.DeleteTopic{Topic: "Shared"}); err != nil {
		t.Fatal(err)
	}
	register(t, leader, registration("c1", "broker-new", "10.0.9.9:10911", 0, 1))
	if leader.node.FSM().Digest() == want {
		t.Fatal("state did not change after the backup")
	}
	// The harness's Raft timers can lose a leader on a loaded machine; a
	// restore refused for that is tried again on the new one.
	poll.For(t, 20*time.Second, "the backup restored by a leader", func() bool {
		err := tc.waitLeaderReady().node.RestoreSnapshot(bytes.NewReader(backup.Bytes()), int64(backup.Len()), func(io.Reader) error { return nil })
		if errors.Is(err, ErrNotLeader) || errors.Is(err, raft.ErrLeadershipLost) || errors.Is(err, raft.ErrNotLeader) {
			return false
		}
		if err != nil {
			t.Fatalf("restore: %v", err)
		}
		return true
	})
	poll.For(t, 10*time.Second, "every member back at the backed-up state", func() bool {
		for _, m := range tc.running() {
			if m.node.FSM().Digest() != want {
				return false
			}
		}
		return true
	})
}

// A restore answers once the leader is back in office with liveness
// rebuilt from the restored tables and reads served: the caller's next
// request must not find the member taking office.
func TestCluster_RestoreAnswersBackInOffice(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	m := tc.waitLeaderReady()
	kept := registration("c1", "broker-kept", "10.0.0.1:10911", 0, 1)
	register(t, m, kept)
	var backup bytes.Buffer
	if _, err := m.node.SaveSnapshot(&backup); err != nil {
		t.Fatalf("save: %v", err)
	}
	later := registration("c1", "broker-later", "10.0.0.2:10911", 0, 1)
	register(t, m, later)
	for round := range 5 {
		if err := m.node.RestoreSnapshot(bytes.NewReader(backup.Bytes()), int64(backup.Len()), func(io.Reader) error { return nil }); err != nil {
			t.Fatalf("round %d: restore: %v", round, err)
		}
		if ready, why := m.node.Ready(); !ready || !m.node.LeaderReady() {
			t.Fatalf("round %d: after the restore answered: ready %v (%s), leader ready %v", round, ready, why, m.node.LeaderReady())
		}
		if _, ok := m.node.lessor.LastSeenAgo(kept.Key()); !ok {
			t.Fatalf("round %d: the restored broker has no lease", round)
		}
		if _, ok := m.node.lessor.LastSeenAgo(later.Key()); ok {
			t.Fatalf("round %d: a broker registered after the backup still has a lease", round)
		}
	}
}

func TestCluster_RestoreRefusesDamagedBackup(t *testing.T) {
	tc := newTestCluster(t, 1, nil)
	// The raise of a new cluster's version must not land between the two
	// digests.
	tc.waitRelease()
	m := tc.waitLeaderReady()
	register(t, m, registration("c1", "broker-a", "10.0.0.1:10911", 0, 1))
	want := m.node.FSM().Digest()
	refuse := func(io.Reader) error { return fmt.Errorf("bad checksum") }
	if err := m.node.RestoreSnapshot(bytes.NewReader(nil), 0, refuse); err == nil {
		t.Fatal("damaged backup accepted")
	}
	if m.node.FSM().Digest() != want {
		t.Fatal("refused restore changed the state")
	}
}

func TestCluster_WritesWithoutLeaderFailClearly(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) { c.ForwardHold = 300 * time.Millisecond })
	leader := tc.waitLeaderReady()
	fs := tc.followers()
	tc.stop(leader)
	tc.stop(fs[1])
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := fs[0].node.Apply(ctx, fsm.PutKVType, &state.PutKV{Namespace: "n", Key: "k", Value: "v", HasValue: true})
	if err == nil {
		t.Fatal("write without a quorum succeeded")
	}
	// The hold (300 ms) ends the write, not the caller's deadline (5 s),
	// and the error says why.
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		t.Fatalf("write without leader ran into the caller's deadline: %v", err)
	}
	if !errors.Is(err, ErrNoLeader) && !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("write without leader failed with %v, want %v or %v", err, ErrNoLeader, ErrOutcomeUnknown)
	}
}

func suffrageOf(t *testing.T, m *testMember, id string) raft.ServerSuffrage {
	t.Helper()
	fut := m.node.Raft().GetConfiguration()
	if err := fut.Error(); err != nil {
		t.Fatal(err)
	}
	for _, s := range fut.Configuration().Servers {
		if string(s.ID) == id {
			return s.Suffrage
		}
	}
	return -1
}

// TestCluster_FollowerReadyWhenLastEntriesNeverReachTheFSM covers a new
// leader's no-op and barrier at the end of the log: the FSM never sees them,
// and a follower must still become ready.
func TestCluster_FollowerReadyWhenLastEntriesNeverReachTheFSM(t *testing.T) {
	tc := newTestCluster(t, 3, nil)
	leader := tc.waitLeaderReady()
	register(t, leader, registration("c1", "broker-a", "10.0.0.1:10911", 0, 1))
	// The leader's housekeeping (member directory, cluster version,
	// settings, storage identities) may append a command after the
	// barriers below: then the barriers are not the last entries, and the
	// round starts again.
	poll.For(t, 30*time.Second, "barriers as the last entries every follower knows committed", func() bool {
		for i := 0; i < 3; i++ {
			if err := leader.node.Raft().Barrier(5 * time.Second).Error(); err != nil {
				t.Fatal(err)
			}
		}
		last := leader.node.Raft().LastIndex()
		for _, f := range tc.followers() {
			err := poll.Until(context.Background(), 10*time.Second, 5*time.Millisecond, f.id+" to see the leader's commit index",
				func() (bool, error) { return f.node.Raft().CommitIndex() >= last, nil })
			if err != nil {
				t.Fatal(err)
			}
			if f.node.FSM().AppliedIndex() >= last {
				return false // a command came after the barriers
			}
		}
		return true
	})
	for _, f := range tc.followers() {
		poll.For(t, 5*time.Second, f.id+" ready", func() bool { ready, _ := f.node.Ready(); return ready })
	}
}

// TestCluster_LaggingFollowerCatchesUpThroughSnapshot compacts the leader's
// log while a follower is down, so the follower must install a snapshot.
func TestCluster_LaggingFollowerCatchesUpThroughSnapshot(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) {
		c.RaftConfig.SnapshotThreshold = 16
		c.RaftConfig.SnapshotInterval = 50 * time.Millisecond
		c.RaftConfig.TrailingLogs = 4
	})
	leader := tc.waitLeaderReady()
	f := tc.followers()[0]
	tc.stop(f)
	for i := 0; i < 60; i++ {
		register(t, leader, registration("c1", fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i+1), 0, 1))
	}
	poll.For(t, 10*time.Second, "the leader to compact its log", func() bool {
		first, err := leader.logs.FirstIndex()
		return err == nil && first > 10
	})
	tc.start(f, nil)
	poll.For(t, 10*time.Second, "the follower to install a snapshot", func() bool {
		metas, err := f.snaps.List()
		return err == nil && len(metas) > 0
	})
	tc.waitSame()
	poll.For(t, 5*time.Second, "the follower ready", func() bool { ready, _ := f.node.Ready(); return ready })
}

// TestCluster_HugeRegistrationIsSplitAcrossEntries registers a broker whose
// topic table would make an entry above the limit, through a follower.
func TestCluster_HugeRegistrationIsSplitAcrossEntries(t *testing.T) {
	// LAN-like timers: entries of hundreds of KiB under -race must not look
	// like a dead leader.
	tc := newTestCluster(t, 3, func(c *Config) {
		c.RaftConfig.HeartbeatTimeout, c.RaftConfig.ElectionTimeout, c.RaftConfig.LeaderLeaseTimeout = time.Second, time.Second, 500*time.Millisecond
		c.ForwardHold = 10 * time.Second
		c.BrokerExpiry = time.Minute
	})
	leader := tc.waitLeaderReady()
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	for i := 0; i < 40000; i++ {
		cmd.TopicConfigs = append(cmd.TopicConfigs, state.TopicConfig{TopicName: fmt.Sprintf("t-%x-%x", i*2654435761, i*40503), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
	}
	whole, err := fsm.Encode(fsm.RegisterBrokerType, cmd)
	if err != nil || len(whole) <= fsm.MaxEntrySize {
		t.Fatalf("registration entry of %d bytes (%v) does not need a split", len(whole), err)
	}
	before := leader.node.Raft().LastIndex()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // slow under -race
	defer cancel()
	if _, err := tc.followers()[0].node.Register(ctx, cmd); err != nil {
		t.Fatal(err)
	}
	if grown := leader.node.Raft().LastIndex() - before; grown < 2 {
		t.Fatalf("log grew by %d entries, want the registration split", grown)
	}
	tc.waitSame()
	last := cmd.TopicConfigs[len(cmd.TopicConfigs)-1].TopicName
	for _, m := range tc.running() {
		if _, ok := m.node.FSM().Route(last, false); !ok {
			_, topics := m.node.FSM().Counts()
			t.Fatalf("%s lacks the last part's topic %s (%d topics of %d)", m.id, last, topics, len(cmd.TopicConfigs))
		}
	}
	if leader.node.FSM().WouldChange(cmd) {
		t.Fatal("the registration still counts as a change after its parts")
	}
}

// TestCluster_MemberDirectoryFollowsChangedAddresses restarts a member with
// a new client address and expects the directory to name it.
func TestCluster_MemberDirectoryFollowsChangedAddresses(t *testing.T) {
	tc := newTestCluster(t, 3, func(c *Config) { c.DirectoryRefresh = 200 * time.Millisecond })
	leader := tc.waitLeaderReady()
	f := tc.followers()[0]
	tc.stop(f)
	tc.start(f, func(c *Config) { c.ClientAddr = "moved-" + f.id })
	poll.For(t, 10*time.Second, "the directory to show the new client address", func() bool {
		for _, m := range leader.node.FSM().Members() {
			if m.ID == f.id {
				return m.ClientAddr == "moved-"+f.id
			}
		}
		return false
	})
}

func TestCluster_FollowersDetectAStoppedLeaderAndRestoreTheirTimers(t *testing.T) {
	slow := func(c *Config) {
		rc := fastRaftConfig()
		rc.HeartbeatTimeout, rc.ElectionTimeout, rc.LeaderLeaseTimeout = 2*time.Second, 2*time.Second, 100*time.Millisecond
		c.RaftConfig = rc
	}
	tc := newTestCluster(t, 3, slow)
	leader := tc.waitLeaderReady()
	survivors := tc.followers()
	// A crash: Raft traffic stops and the cluster port closes, with no
	// leadership transfer.
	tc.partition(leader)
	leader.node.mux.Close()
	var next *testMember
	poll.For(t, 15*time.Second, "a new leader", func() bool {
		for _, m := range survivors {
			if m.node.LeaderReady() {
				next = m
				return true
			}
		}
		return false
	})
	tc.stop(leader)
	if next == leader {
		t.Fatal("the stopped leader is still leader")
	}
	var detected uint64
	for _, m := range survivors {
		detected += m.node.Stats().LeaderLossDetected.Load()
	}
	if detected == 0 {
		t.Fatal("no survivor noticed that the leader's cluster port closed")
	}
	for _, m := range survivors {
		poll.For(t, 15*time.Second, m.id+" to restore its raft timeouts", func() bool {
			return m.node.Raft().ReloadableConfig().HeartbeatTimeout == 2*time.Second
		})
	}
}
