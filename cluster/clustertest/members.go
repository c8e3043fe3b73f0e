package clustertest

import (
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
)

// Members is an in-process cluster of several voters, for tests of the
// packages above cluster that need a leader and followers.
type Members struct {
	t  testing.TB
	mu sync.Mutex
	// nodes by member id; stopped members are removed.
	nodes  map[string]*cluster.Node
	trans  map[string]*raft.InmemTransport
	addrs  map[string]string
	sorted []string
}

// Start starts n voters (ids n1, n2, …) with the same peer list and short
// liveness timers, and waits for a ready leader and for every member at
// the cluster version the cluster was formed at. tune may adjust each
// member's config. Every member is shut down when the test ends.
//
// The leader raises a new cluster's version from the baseline in an entry
// of its own once every member answers; the gates of that version (the
// audit trail among them) are closed until every member applied it, so a
// test that began before would race the raise.
func Start(t testing.TB, n int, tune func(*cluster.Config)) *Members {
	t.Helper()
	ms := &Members{t: t, nodes: map[string]*cluster.Node{}, trans: map[string]*raft.InmemTransport{}, addrs: map[string]string{}}
	var peers []cluster.Peer
	var formed string
	lns := map[string]net.Listener{}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("n%d", i)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns[id], ms.addrs[id] = ln, ln.Addr().String()
		_, ms.trans[id] = raft.NewInmemTransport(raft.ServerAddress(ms.addrs[id]))
		peers = append(peers, cluster.Peer{ID: id, Addr: ms.addrs[id]})
		ms.sorted = append(ms.sorted, id)
	}
	for _, a := range ms.sorted {
		for _, b := range ms.sorted {
			if a != b {
				ms.trans[a].Connect(raft.ServerAddress(ms.addrs[b]), ms.trans[b])
			}
		}
	}
	for _, id := range ms.sorted {
		ms.nodes[id] = start(t, lns[id], ms.trans[id], membersRaftTimer, func(cfg *cluster.Config) {
			cfg.ID, cfg.ClusterAddr, cfg.ClientAddr, cfg.Peers = id, ms.addrs[id], "client-"+id, peers
			cfg.HeartbeatBatchInterval, cfg.ConnCloseGrace, cfg.ScanInterval = 50*time.Millisecond, 300*time.Millisecond, 100*time.Millisecond
			cfg.MaxStale, cfg.ForwardHold, cfg.ApplyTimeout = time.Second, 3*time.Second, 3*time.Second
			if tune != nil {
				tune(cfg)
			}
			formed = cfg.InitialClusterVersion
		})
	}
	ms.Leader()
	ms.waitClusterVersion(formed)
	return ms
}

// waitClusterVersion waits until every running member applied the cluster
// version v ("" for this release).
func (ms *Members) waitClusterVersion(v string) {
	ms.t.Helper()
	want := buildinfo.Current()
	if v != "" {
		want = buildinfo.MustParse(v)
	}
	// The leader retries the raise with a growing wait (1 s, 2 s, …) while
	// a member does not answer: allow a few attempts on a loaded machine.
	poll.For(ms.t, 30*time.Second, "every member at cluster version "+want.String(), func() bool {
		for _, n := range ms.Running() {
			if n.FSM().ClusterVersion() != want {
				return false
			}
		}
		return true
	})
}

// Running returns the members not stopped, by id.
func (ms *Members) Running() []*cluster.Node {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	var out []*cluster.Node
	for _, id := range ms.sorted {
		if n, ok := ms.nodes[id]; ok {
			out = append(out, n)
		}
	}
	return out
}

// Leader waits for a ready leader among the running members.
func (ms *Members) Leader() *cluster.Node {
	ms.t.Helper()
	var leader *cluster.Node
	poll.For(ms.t, 10*time.Second, "a ready leader", func() bool {
		for _, n := range ms.Running() {
			if n.LeaderReady() {
				leader = n
				return true
			}
		}
		return false
	})
	return leader
}

// Followers returns the running members that are not the leader.
func (ms *Members) Followers() []*cluster.Node {
	var out []*cluster.Node
	for _, n := range ms.Running() {
		if !n.IsLeader() {
			out = append(out, n)
		}
	}
	return out
}

// Stop shuts a member down and cuts it off from the others.
func (ms *Members) Stop(n *cluster.Node) {
	if err := n.Shutdown(); err != nil {
		ms.t.Logf("shutdown %s: %v", n.ID(), err)
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	delete(ms.nodes, n.ID())
	for id, tr := range ms.trans {
		if id != n.ID() {
			tr.Disconnect(raft.ServerAddress(ms.addrs[n.ID()]))
		}
	}
}

// WaitApplied waits until every running member applied index.
func (ms *Members) WaitApplied(index uint64) {
	ms.t.Helper()
	poll.For(ms.t, 10*time.Second, fmt.Sprintf("every member at index %d", index), func() bool {
		for _, n := range ms.Running() {
			if n.FSM().AppliedIndex() < index {
				return false
			}
		}
		return true
	})
}
