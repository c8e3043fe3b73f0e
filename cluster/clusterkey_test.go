package cluster

import (
	"context"
	"fmt"
	"github.com/raftns/raftns/transport"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/transport/lane"
)

var testClusterKey = []byte("0123456789abcdef0123456789abcdef")

// startKeyCluster starts n voters sharing key, plain TCP, and returns them
// once one leads.
func startKeyCluster(t *testing.T, n int, key []byte) []*testMember {
	t.Helper()
	var lns []net.Listener
	var peers []Peer
	for i := 1; i <= n; i++ {
		ln := listenLoopback(t)
		lns = append(lns, ln)
		peers = append(peers, Peer{ID: fmt.Sprintf("n%d", i), Addr: ln.Addr().String()})
	}
	var ms []*testMember
	for i, p := range peers {
		ms = append(ms, startNetMember(t, p.ID, lns[i], nil, func(c *Config) { c.Peers, c.ClusterKey = peers, key }))
	}
	waitNetLeader(t, ms)
	return ms
}

// outsiderRaft sends a Raft AppendEntries from a made-up leader through a
// Raft transport that dials with d.
func outsiderRaft(t *testing.T, d transport.Dialer, target string) error {
	t.Helper()
	trans := raft.NewNetworkTransportWithConfig(&raft.NetworkTransportConfig{
		Stream:  transport.RaftLayer{ChanListener: transport.NewChanListener(&net.TCPAddr{}, make(chan struct{})), Dialer: d},
		MaxPool: 1, Timeout: 2 * time.Second, Logger: hclog.NewNullLogger(),
	})
	defer trans.Close()
	var resp raft.AppendEntriesResponse
	return trans.AppendEntries("n1", raft.ServerAddress(target), &raft.AppendEntriesRequest{
		RPCHeader: raft.RPCHeader{ID: []byte("intruder"), Addr: []byte("127.0.0.1:1")},
		Term:      1000, PrevLogEntry: 0, PrevLogTerm: 0, LeaderCommitIndex: 0,
	}, &resp)
}

func TestClusterKey_MembersReplicateAndOutsidersAreRefused(t *testing.T) {
	ms := startKeyCluster(t, 3, testClusterKey)
	leader := waitNetLeader(t, ms)
	var follower *testMember
	for _, m := range ms {
		if m != leader {
			follower = m
			break
		}
	}
	cmd := registration("c1", "broker-a", "10.0.0.1:10911", 0, 1)
	register(t, follower, cmd)
	for _, m := range ms {
		poll.For(t, 10*time.Second, "the registration on "+m.id, func() bool { return registered(m, cmd) })
		if got := m.node.Stats().ClusterConnsRejected.Load(); got != 0 {
			t.Fatalf("%s rejected %d connections between members", m.id, got)
		}
	}
	term := leader.node.Raft().Stats()["term"]

	put, err := fsm.Encode(fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "intruder", HasValue: true})
	if err != nil {
		t.Fatal(err)
	}
	wrongKey := []byte("fedcba9876543210fedcba9876543210")
	for _, who := range []struct {
		name string
		d    transport.Dialer
	}{{"no key", transport.Dialer{}}, {"wrong key", transport.Dialer{Key: wrongKey}}} {
		calls := []struct {
			method      string
			args, reply any
		}{
			{"Forward", &ForwardArgs{From: "intruder", Command: put}, &LeaderReply{}},
			{"Join", &JoinArgs{ID: "intruder", ClusterAddr: "127.0.0.1:1"}, &LeaderReply{}},
			{"Remove", &RemoveArgs{ID: follower.id, Force: true}, &LeaderReply{}},
			{"Heartbeats", &HeartbeatArgs{From: "intruder", Closed: []state.BrokerKey{cmd.Key()}}, &LeaderReply{}},
			{"Status", &StatusArgs{}, &adminapi.Status{}},
		}
		for _, c := range calls {
			t.Run(who.name+"/"+c.method, func(t *testing.T) {
				before := leader.node.Stats().ClusterConnsRejected.Load()
				pool := newRPCPool(who.d, nil)
				defer pool.close()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				if err := pool.call(ctx, leader.addr, c.method, c.args, c.reply, true); err == nil {
					t.Fatalf("%s without the key answered %+v", c.method, c.reply)
				}
				poll.For(t, 5*time.Second, "the refusal counted", func() bool {
					return leader.node.Stats().ClusterConnsRejected.Load() > before
				})
			})
		}
		t.Run(who.name+"/forward lane", func(t *testing.T) {
			before := leader.node.Stats().ClusterConnsRejected.Load()
			lanes := newLanes(who.d, nil, hclog.NewNullLogger())
			defer lanes.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if r, err := lanes.Forward(ctx, lane.Cut{}, leader.addr, put, true); err == nil {
				t.Fatalf("a forward without the key was answered: %+v", r)
			}
			poll.For(t, 5*time.Second, "the refusal counted", func() bool {
				return leader.node.Stats().ClusterConnsRejected.Load() > before
			})
		})
		t.Run(who.name+"/raft AppendEntries", func(t *testing.T) {
			before := follower.node.Stats().ClusterConnsRejected.Load()
			if err := outsiderRaft(t, who.d, follower.addr); err == nil {
				t.Fatal("AppendEntries without the key was answered")
			}
			poll.For(t, 5*time.Second, "the refusal counted", func() bool {
				return follower.node.Stats().ClusterConnsRejected.Load() > before
			})
		})
	}
	// The same call with the key is answered: the refusals above are the
	// key's doing.
	pool := newRPCPool(transport.Dialer{Key: testClusterKey}, nil)
	defer pool.close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var st adminapi.Status
	if err := pool.call(ctx, leader.addr, "Status", &StatusArgs{}, &st, true); err != nil || st.ID != leader.id {
		t.Fatalf("Status with the key: %+v, %v", st, err)
	}
	// Even with the key, Forward takes only what a follower may forward:
	// a member cannot forge the leader's expiry of a live broker.
	reg, _ := leader.node.FSM().Registration(cmd.Key())
	expire, err := fsm.Encode(fsm.ExpireBrokersType, &state.ExpireBrokers{Brokers: []state.ExpiredBroker{{Key: cmd.Key(), RegEpoch: reg.RegEpoch}}, Reason: "timeout"})
	if err != nil {
		t.Fatal(err)
	}
	var refusedReply LeaderReply
	if err := pool.call(ctx, leader.addr, "Forward", &ForwardArgs{From: follower.id, Command: expire}, &refusedReply, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(refusedReply.Err, "ExpireBrokers") || !strings.Contains(refusedReply.Err, "may not be forwarded") {
		t.Fatalf("Forward(ExpireBrokers) with the key = %+v, want a refusal naming the command", refusedReply)
	}
	// Nothing the outsiders sent took effect: no KV, same members, same
	// term, the broker still registered; and the members still replicate.
	for _, m := range ms {
		if _, ok := m.node.FSM().KV("ns", "k"); ok {
			t.Fatalf("%s applied the outsider's PutKV", m.id)
		}
		if ids := configuredIDs(t, m); len(ids) != 3 || ids["intruder"] {
			t.Fatalf("%s configuration = %v", m.id, ids)
		}
		if !registered(m, cmd) {
			t.Fatalf("%s lost the registration", m.id)
		}
	}
	if now := leader.node.Raft().Stats()["term"]; now != term || !leader.node.IsLeader() {
		t.Fatalf("term %s -> %s, leader %v: the outsider disturbed the election", term, now, leader.node.IsLeader())
	}
	cmd2 := registration("c1", "broker-b", "10.0.0.2:10911", 0, 1)
	register(t, follower, cmd2)
	for _, m := range ms {
		poll.For(t, 10*time.Second, "the second registration on "+m.id, func() bool { return registered(m, cmd2) })
	}
}

func TestClusterKey_MemberWithoutKeyCannotJoin(t *testing.T) {
	m := startNetMember(t, "n1", listenLoopback(t), nil, func(c *Config) { c.ClusterKey = testClusterKey })
	waitNetLeader(t, []*testMember{m})
	plain := startNetMember(t, "plain", listenLoopback(t), nil, func(c *Config) { c.Join = []string{m.addr} })
	poll.For(t, 10*time.Second, "join attempts refused", func() bool {
		return m.node.Stats().ClusterConnsRejected.Load() >= 2
	})
	if ids := configuredIDs(t, m); len(ids) != 1 {
		t.Fatalf("configuration = %v, want only n1", ids)
	}
	if ids := configuredIDs(t, plain); len(ids) != 0 {
		t.Fatalf("plain member's configuration = %v, want none", ids)
	}
}

func TestLoadClusterKey(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	os.WriteFile(good, []byte("  0123456789abcdef0123\n"), 0o600)
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("short\n"), 0o600)
	if k, err := LoadClusterKey(good); err != nil || string(k) != "0123456789abcdef0123" {
		t.Fatalf("good key = %q, %v", k, err)
	}
	for _, p := range []string{short, filepath.Join(dir, "missing")} {
		if _, err := LoadClusterKey(p); err == nil {
			t.Fatalf("%s accepted", p)
		}
	}
	cfg := DefaultConfig()
	cfg.ID, cfg.ClusterAddr, cfg.ClusterKey = "n1", "127.0.0.1:1", []byte("short")
	if err := cfg.Validate(); err == nil {
		t.Fatal("a short cluster key passed Validate")
	}
}
