package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/buildinfo"
	"github.com/raftns/raftns/internal/poll"
)

// formation makes a member part of a cluster (docs/contributors/design.md,
// "Membership"): it recovers a configuration an operator wrote, forms the
// initial one on a first start, or asks to join.
type formation struct {
	cfg       *Config
	logger    hclog.Logger
	stores    *stores
	trans     raft.Transport
	admission *admission
	// status asks a peer for its status over the cluster port.
	status func(ctx context.Context, addr string) (adminapi.Status, error)
}

// bootstrap forms the initial configuration on a member without Raft state
// (docs/contributors/design.md, "Membership"): the same voter list on every initial member, or
// this member alone when it neither has peers nor joins. A member started
// with Join, or with Bootstrap false, waits to be added. A member on disk
// storage with initial peers first asks them whether they hold a cluster
// (formation_decision.go): decide is then true and the caller runs
// decideFormation.
func (f formation) bootstrap(r *raft.Raft) (decide bool, err error) {
	has, err := raft.HasExistingState(f.stores.logs, f.stores.stable, f.stores.snaps)
	if err != nil {
		return false, fmt.Errorf("read raft state: %w", err)
	}
	if has {
		f.logger.Info("resuming from existing raft state")
		return false, nil
	}
	var servers []raft.Server
	switch {
	case len(f.cfg.Peers) > 0 && !f.cfg.listedInPeers():
		// A StatefulSet scaled up starts new members with the initial list.
		f.logger.Warn("this member is not among the initial peers: not bootstrapping; waiting to be added (raftnsctl peers add)",
			"peers", len(f.cfg.Peers))
		f.awaitAdding()
		return false, nil
	case len(f.cfg.Peers) > 0 && f.admission.dir != "" && !f.cfg.NewCluster:
		return true, nil
	case len(f.cfg.Peers) > 0:
		servers = f.initialVoters()
	case len(f.cfg.Join) == 0 && f.cfg.Bootstrap:
		servers = []raft.Server{{Suffrage: raft.Voter, ID: raft.ServerID(f.cfg.ID), Address: f.trans.LocalAddr()}}
	default:
		f.logger.Info("waiting to be added to a cluster", "join", f.cfg.Join)
		f.awaitAdding()
		return false, nil
	}
	return false, f.form(r, servers)
}

// awaitAdding marks a member on new storage that waits to be added: it
// votes once the leader admitted it.
func (f formation) awaitAdding() {
	if !f.admission.voting() {
		f.admission.wait(adminapi.AdmissionAwaiting, "being added to the cluster (raftnsctl peers add, or --join)")
	}
}

// initialVoters is the configuration the initial peers form.
func (f formation) initialVoters() []raft.Server {
	var servers []raft.Server
	for _, p := range f.cfg.Peers {
		servers = append(servers, raft.Server{Suffrage: raft.Voter, ID: raft.ServerID(p.ID), Address: raft.ServerAddress(p.Addr)})
	}
	return servers
}

// form bootstraps a new cluster of servers; a member forming it holds no
// promise to forget, so it votes at once.
func (f formation) form(r *raft.Raft, servers []raft.Server) error {
	if err := f.admission.admit("it forms a new cluster"); err != nil {
		return err
	}
	if err := f.recordFormation(); err != nil {
		return err
	}
	err := r.BootstrapCluster(raft.Configuration{Servers: servers}).Error()
	if err != nil && !errors.Is(err, raft.ErrCantBootstrap) {
		return fmt.Errorf("bootstrap: %w", err)
	}
	f.logger.Info("bootstrapped cluster", "voters", len(servers))
	return nil
}

// peersFile is the quorum-loss recovery file an operator may place in the
// Raft directory (docs/contributors/design.md, "Membership").
func peersFile(dataDir string) string { return filepath.Join(raftDir(dataDir), "peers.json") }

// recoverFromPeersFile rewrites the configuration from peers.json, then
// renames the file so it is used once. It implicitly commits every entry in
// this member's log: see docs/operators/operations.md before using it.
func (f formation) recoverFromPeersFile(rc *raft.Config, fsm raft.FSM) error {
	path := peersFile(f.cfg.DataDir)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	conf, err := raft.ReadConfigJSON(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := raft.RecoverCluster(rc, fsm, f.stores.logs, f.stores.stable, f.stores.snaps, f.trans, conf); err != nil {
		return fmt.Errorf("recover cluster from %s: %w", path, err)
	}
	if err := os.Rename(path, filepath.Join(raftDir(f.cfg.DataDir), "peers.info")); err != nil {
		return fmt.Errorf("rename %s after recovery: %w", path, err)
	}
	f.logger.Warn("recovered cluster configuration from peers.json", "servers", len(conf.Servers))
	return nil
}

// joinLoop asks the members named by Join, through pool, to admit this one
// until r has it in the configuration or stop closes.
func (f formation) joinLoop(r *raft.Raft, pool *rpcPool, stop <-chan struct{}) {
	backoff := 200 * time.Millisecond
	for {
		if inConfiguration(r, f.cfg.ID) {
			return
		}
		for _, addr := range f.cfg.Join {
			if err := f.askToJoin(pool, addr); err != nil {
				f.logger.Warn("join attempt failed", "addr", addr, "error", err)
				continue
			}
			f.logger.Info("admitted to cluster", "via", addr)
			return
		}
		if !poll.Sleep(jitter(backoff), stop) {
			return
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func (f formation) askToJoin(pool *rpcPool, addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), f.cfg.ForwardHold+f.cfg.ApplyTimeout)
	defer cancel()
	var reply LeaderReply
	args := &JoinArgs{ID: f.cfg.ID, ClusterAddr: string(f.trans.LocalAddr()), Release: buildinfo.Release}
	if err := pool.call(ctx, addr, "Join", args, &reply, false); err != nil {
		return err
	}
	if err := replyErr(&reply); err != nil {
		return err
	}
	f.logger.Info("join answered", "outcome", string(reply.Result))
	return nil
}
