package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
	"github.com/raftns/raftns/transport/tlstest"
)

// TestProcess_ClusterPortRefusesOutsiders starts three members whose
// cluster ports trust members only (a shared cluster key, or mutual TLS)
// and plays an outsider without the key or a certificate: Forward, Join,
// Remove and a Raft AppendEntries are all refused at the connection and
// counted, nothing changes, and the members keep replicating.
func TestProcess_ClusterPortRefusesOutsiders(t *testing.T) {
	for _, mode := range []string{"cluster key", "mutual TLS"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			var ps []*proc
			var peers []string
			for i := 1; i <= 3; i++ {
				p := newProc(t, fmt.Sprintf("n%d", i))
				ps = append(ps, p)
				peers = append(peers, p.ID+"="+p.ClusterAddr)
			}
			keyFile := filepath.Join(dir, "cluster.key")
			if err := os.WriteFile(keyFile, []byte("c7f0a1e9b3d24c5f8a6e0b1d2c3f4a5b\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			ca := tlstest.NewCA(t, dir, "members")
			for _, p := range ps {
				p.Args = []string{"--peers", strings.Join(peers, ",")}
				if mode == "cluster key" {
					p.Args = append(p.Args, "--cluster-key-file", keyFile)
				} else {
					f := ca.Issue(t, dir, p.ID)
					p.Args = append(p.Args, "--cluster-tls-cert", f.CertFile, "--cluster-tls-key", f.KeyFile, "--cluster-tls-ca", f.CAFile)
				}
				p.start()
			}
			for _, p := range ps {
				p.waitReady()
			}
			leader := leaderOf(t, ps)
			follower := survivors(ps, leader)[0]
			c := newClient(t)
			ctx := ctxT(t, time.Minute)
			reg := brokerRegistration("c1", "broker-a", "10.0.0.1:10911", 0, 1, "TopicSafe")
			if _, err := c.RegisterBroker(ctx, follower.ClientAddr, reg); err != nil {
				t.Fatal(err)
			}
			st, _ := leader.status()
			term := st.Term

			put, err := fsm.Encode(fsm.PutKVType, &state.PutKV{Namespace: "ns", Key: "k", Value: "intruder", HasValue: true})
			if err != nil {
				t.Fatal(err)
			}
			attempts := []struct {
				name   string
				target *proc
				call   func(addr string) error
			}{
				{"Forward", leader, func(a string) error {
					return outsiderRPC(a, "Forward", &cluster.ForwardArgs{From: "intruder", Command: put}, &cluster.LeaderReply{})
				}},
				{"Join", follower, func(a string) error {
					return outsiderRPC(a, "Join", &cluster.JoinArgs{ID: "intruder", ClusterAddr: "127.0.0.1:1"}, &cluster.LeaderReply{})
				}},
				{"Remove", leader, func(a string) error {
					return outsiderRPC(a, "Remove", &cluster.RemoveArgs{ID: follower.ID, Force: true}, &cluster.LeaderReply{})
				}},
				{"Raft AppendEntries", follower, func(a string) error { return outsiderAppendEntries(t, a) }},
			}
			for _, at := range attempts {
				before := metricValue(t, at.target, "ns_cluster_conns_rejected_total")
				if err := at.call(at.target.ClusterAddr); err == nil {
					t.Fatalf("%s from an outsider was answered", at.name)
				}
				poll.For(t, 10*time.Second, at.name+" refusal counted on "+at.target.ID, func() bool {
					return metricValue(t, at.target, "ns_cluster_conns_rejected_total") > before
				})
			}

			// Nothing changed, and the members still replicate.
			reg2 := brokerRegistration("c1", "broker-b", "10.0.0.2:10911", 0, 1, "TopicAfter")
			if _, err := c.RegisterBroker(ctx, follower.ClientAddr, reg2); err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if v, err := c.GetKV(ctx, p.ClientAddr, "ns", "k"); err == nil {
					t.Fatalf("%s has the outsider's KV %q", p.ID, v)
				}
				poll.For(t, 20*time.Second, "both brokers on "+p.ID, func() bool {
					a, errA := c.GetRoute(ctx, p.ClientAddr, "TopicSafe")
					b, errB := c.GetRoute(ctx, p.ClientAddr, "TopicAfter")
					return errA == nil && errB == nil && len(a.BrokerDatas) == 1 && len(b.BrokerDatas) == 1
				})
				ci, err := c.GetClusterInfo(ctx, p.ClientAddr)
				if err != nil || len(ci.BrokerAddrTable) != 2 {
					t.Fatalf("%s cluster info %+v, %v", p.ID, ci, err)
				}
			}
			if st, _ := leader.status(); st.Term != term || !st.IsLeader() {
				t.Fatalf("leader %s: term %d -> %d, leader %v: the outsider disturbed the election", leader.ID, term, st.Term, st.IsLeader())
			}
			peersNow := metricValue(t, leader, "raft_peers")
			if peersNow != 3 {
				t.Fatalf("raft_peers = %v after the outsider's Join and Remove, want 3", peersNow)
			}
		})
	}
}
