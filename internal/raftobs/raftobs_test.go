package raftobs

import (
	"io"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
)

type nopFSM struct{}

func (nopFSM) Apply(*raft.Log) any                 { return nil }
func (nopFSM) Snapshot() (raft.FSMSnapshot, error) { return nil, nil }
func (nopFSM) Restore(io.ReadCloser) error         { return nil }

// TestLeadersSeesElection: a single node electing itself shows up as a
// leader observation naming it; other observations are filtered out.
func TestLeadersSeesElection(t *testing.T) {
	conf := raft.DefaultConfig()
	conf.LocalID = "a"
	conf.Logger = hclog.NewNullLogger()
	conf.HeartbeatTimeout = 50 * time.Millisecond
	conf.ElectionTimeout = 50 * time.Millisecond
	conf.LeaderLeaseTimeout = 50 * time.Millisecond
	addr, trans := raft.NewInmemTransport("")
	store := raft.NewInmemStore()
	r, err := raft.NewRaft(conf, nopFSM{}, store, store, raft.NewInmemSnapshotStore(), trans)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Shutdown()
	changes, stop := Leaders(r)
	boot := raft.Configuration{Servers: []raft.Server{{ID: "a", Address: addr}}}
	if err := r.BootstrapCluster(boot).Error(); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case o := <-changes:
			lo, ok := o.Data.(raft.LeaderObservation)
			if !ok {
				t.Fatalf("observation %T, want raft.LeaderObservation", o.Data)
			}
			if lo.LeaderID == "a" {
				stop()
				return
			}
		case <-deadline:
			t.Fatal("no leader observation naming the elected node within 10s")
		}
	}
}
