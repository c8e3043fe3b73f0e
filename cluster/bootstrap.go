package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/internal/poll"
)

// bootstrap forms the initial configuration on a member without Raft state
// (docs/design.md, "Membership"): the same voter list on every initial member, or
// this member alone when it neither has peers nor joins. A member started
// with Join, or with Bootstrap false, waits to be added.
func (n *Node) bootstrap() error {
	has, err := raft.HasExistingState(n.stores.logs, n.stores.stable, n.stores.snaps)
	if err != nil {
		return fmt.Errorf("read raft state: %w", err)
	}
	if has {
		n.logger.Info("resuming from existing raft state")
		return nil
	}
	var servers []raft.Server
	switch {
	case len(n.cfg.Peers) > 0 && !n.cfg.listedInPeers():
		// A StatefulSet scaled up starts new members with the initial list.
		n.logger.Warn("this member is not among the initial peers: not bootstrapping; waiting to be added (raftnsctl peers add)",
			"peers", len(n.cfg.Peers))
		return nil
	case len(n.cfg.Peers) > 0:
		for _, p := range n.cfg.Peers {
			servers = append(servers, raft.Server{Suffrage: raft.Voter, ID: raft.ServerID(p.ID), Address: raft.ServerAddress(p.Addr)})
		}
	case len(n.cfg.Join) == 0 && n.cfg.Bootstrap:
		servers = []raft.Server{{Suffrage: raft.Voter, ID: raft.ServerID(n.cfg.ID), Address: n.trans.LocalAddr()}}
	default:
		n.logger.Info("waiting to be added to a cluster", "join", n.cfg.Join)
		return nil
	}
	err = n.raft.BootstrapCluster(raft.Configuration{Servers: servers}).Error()
	if err != nil && !errors.Is(err, raft.ErrCantBootstrap) {
		return fmt.Errorf("bootstrap: %w", err)
	}
	n.logger.Info("bootstrapped cluster", "voters", len(servers))
	return nil
}

// peersFile is the quorum-loss recovery file an operator may place in the
// Raft directory (docs/design.md, "Membership").
func peersFile(dataDir string) string { return filepath.Join(raftDir(dataDir), "peers.json") }

// recoverFromPeersFile rewrites the configuration from peers.json, then
// renames the file so it is used once. It implicitly commits every entry in
// this member's log: see docs/operations.md before using it.
func (n *Node) recoverFromPeersFile(rc *raft.Config) error {
	path := peersFile(n.cfg.DataDir)
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	conf, err := raft.ReadConfigJSON(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := raft.RecoverCluster(rc, n.fsm, n.stores.logs, n.stores.stable, n.stores.snaps, n.trans, conf); err != nil {
		return fmt.Errorf("recover cluster from %s: %w", path, err)
	}
	if err := os.Rename(path, filepath.Join(raftDir(n.cfg.DataDir), "peers.info")); err != nil {
		return fmt.Errorf("rename %s after recovery: %w", path, err)
	}
	n.logger.Warn("recovered cluster configuration from peers.json", "servers", len(conf.Servers))
	return nil
}

// joinLoop asks the members named by Join to admit this one until it is in
// the configuration.
func (n *Node) joinLoop() {
	backoff := 200 * time.Millisecond
	for {
		if inConfiguration(n.raft, n.cfg.ID) {
			return
		}
		for _, addr := range n.cfg.Join {
			if err := n.askToJoin(addr); err != nil {
				n.logger.Warn("join attempt failed", "addr", addr, "error", err)
				continue
			}
			n.logger.Info("admitted to cluster", "via", addr)
			return
		}
		if !poll.Sleep(jitter(backoff), n.shutdownCh) {
			return
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

func (n *Node) askToJoin(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.ForwardHold+n.cfg.ApplyTimeout)
	defer cancel()
	var reply LeaderReply
	args := &JoinArgs{ID: n.cfg.ID, ClusterAddr: string(n.trans.LocalAddr())}
	if err := n.pool.call(ctx, addr, "Join", args, &reply, false); err != nil {
		return err
	}
	if err := replyErr(&reply); err != nil {
		return err
	}
	n.logger.Info("join answered", "outcome", string(reply.Result))
	return nil
}

// inConfiguration reports whether the member id is in r's latest
// configuration.
func inConfiguration(r *raft.Raft, id string) bool {
	fut := r.GetConfiguration()
	if fut.Error() != nil {
		return false
	}
	for _, s := range fut.Configuration().Servers {
		if string(s.ID) == id {
			return true
		}
	}
	return false
}
