package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
)

// membershipTimeout bounds one Raft configuration change.
const membershipTimeout = 10 * time.Second

// statusProbeTimeout bounds asking another member for its status.
const statusProbeTimeout = time.Second

// Join admits a member as a non-voter; the leader promotes it once it has
// caught up (docs/design.md, "Membership"). A follower passes the request
// to the leader. Joining again with the same ID and address changes
// nothing. The result says what happened.
func (n *Node) Join(ctx context.Context, id, addr string) (string, error) {
	res, err := n.onLeader(ctx, leaderOp{
		method: "JoinAsLeader",
		args:   func() (any, error) { return &JoinArgs{ID: id, ClusterAddr: addr}, nil },
		local:  func(context.Context) (any, error) { return n.joinAsLeader(id, addr) },
		decode: func(b []byte) (any, error) { return string(b), nil },
	})
	outcome, _ := res.(string)
	return outcome, err
}

// Join outcomes.
const (
	JoinedAsNonvoter = "added as non-voter; promoted to voter once caught up"
	AlreadyMember    = "already a member with this address; nothing changed"
)

func (n *Node) joinAsLeader(id, addr string) (string, error) {
	if !n.IsLeader() {
		return "", ErrNotLeader
	}
	conf, err := n.configuration()
	if err != nil {
		return "", err
	}
	outcome := JoinedAsNonvoter
	for _, s := range conf.Servers {
		switch {
		case string(s.ID) == id && string(s.Address) == addr:
			return AlreadyMember, nil
		case string(s.ID) == id || string(s.Address) == addr:
			n.logger.Warn("replacing stale member entry", "id", s.ID, "address", s.Address)
			if err := n.removeServer(s, false); err != nil {
				return "", err
			}
			outcome = fmt.Sprintf("replaced %s at %s, then %s", s.ID, s.Address, JoinedAsNonvoter)
		}
	}
	if err := n.raft.AddNonvoter(raft.ServerID(id), raft.ServerAddress(addr), 0, membershipTimeout).Error(); err != nil {
		return "", fmt.Errorf("add non-voter %s: %w", id, err)
	}
	n.logger.Info("member added as non-voter", "id", id, "address", addr)
	return outcome, nil
}

// AddPeer is the operator's "peers add": Join under another name.
func (n *Node) AddPeer(ctx context.Context, id, addr string) (string, error) {
	return n.Join(ctx, id, addr)
}

// RemovePeer removes a member. It refuses a removal that would leave fewer
// connected voters than a quorum, and going from two voters to one, unless
// force is set. Removing the leader transfers leadership first; the new
// leader then performs the removal. Any member may be asked: it passes the
// request to the leader.
func (n *Node) RemovePeer(ctx context.Context, id string, force bool) error {
	_, err := n.onLeader(ctx, leaderOp{
		method: "Remove",
		args:   func() (any, error) { return &RemoveArgs{ID: id, Force: force}, nil },
		local:  func(ctx context.Context) (any, error) { return nil, n.removeAsLeader(ctx, id, force) },
	})
	return err
}

func (n *Node) removeAsLeader(ctx context.Context, id string, force bool) error {
	if !n.IsLeader() {
		return ErrNotLeader
	}
	conf, err := n.configuration()
	if err != nil {
		return err
	}
	for _, s := range conf.Servers {
		if string(s.ID) != id {
			continue
		}
		if id == n.cfg.ID {
			return n.removeSelf(ctx, force)
		}
		return n.removeServer(s, force)
	}
	return fmt.Errorf("%w: %s", ErrUnknownMember, id)
}

func (n *Node) removeServer(s raft.Server, force bool) error {
	if s.Suffrage == raft.Voter && !force {
		if err := n.checkQuorumWithout(s.ID); err != nil {
			return err
		}
	}
	if err := n.raft.RemoveServer(s.ID, 0, membershipTimeout).Error(); err != nil {
		return fmt.Errorf("remove %s: %w", s.ID, err)
	}
	n.logger.Info("member removed", "id", s.ID, "address", s.Address)
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.ApplyTimeout)
	defer cancel()
	if _, err := n.applyAsLeader(ctx, fsm.RemoveMemberType, &fsm.RemoveMember{ID: string(s.ID)}); err != nil {
		n.logger.Warn("member directory not updated; the leader will retry", "id", s.ID, "error", err)
	}
	return nil
}

// removeSelf hands leadership to another voter and asks it to remove us.
func (n *Node) removeSelf(ctx context.Context, force bool) error {
	if err := n.checkQuorumWithout(raft.ServerID(n.cfg.ID)); err != nil && !force {
		return err
	}
	if err := n.raft.LeadershipTransfer().Error(); err != nil {
		return fmt.Errorf("transfer leadership before removing the leader: %w", err)
	}
	n.logger.Info("leadership transferred; asking the new leader to remove this member")
	return n.RemovePeer(ctx, n.cfg.ID, force)
}

// checkQuorumWithout refuses to remove a voter when the voters left that
// answer would be fewer than a quorum of the new configuration, or when it
// would go from two voters to one (etcd mayRemoveMember).
func (n *Node) checkQuorumWithout(id raft.ServerID) error {
	conf, err := n.configuration()
	if err != nil {
		return err
	}
	var remaining []raft.Server
	for _, s := range conf.Servers {
		if s.Suffrage == raft.Voter && s.ID != id {
			remaining = append(remaining, s)
		}
	}
	if len(remaining) == 0 {
		return fmt.Errorf("%w: cannot remove the last voter", ErrQuorumAtRisk)
	}
	if len(remaining) == 1 {
		return fmt.Errorf("%w: going from two voters to one needs force", ErrQuorumAtRisk)
	}
	connected := 0
	for _, s := range remaining {
		if n.reachable(s) {
			connected++
		}
	}
	if need := len(remaining)/2 + 1; connected < need {
		return fmt.Errorf("%w: %d of %d remaining voters reachable, quorum needs %d", ErrQuorumAtRisk, connected, len(remaining), need)
	}
	return nil
}

func (n *Node) reachable(s raft.Server) bool {
	if string(s.ID) == n.cfg.ID {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
	defer cancel()
	st, err := n.memberStatus(ctx, string(s.Address))
	return err == nil && st.LastContactMillis >= 0 && time.Duration(st.LastContactMillis)*time.Millisecond < n.cfg.MaxStale
}

// TransferLeadership hands leadership to the member id, or to the most
// up-to-date voter when id is empty. Any member may be asked: it passes
// the request to the leader.
func (n *Node) TransferLeadership(ctx context.Context, id string) error {
	_, err := n.onLeader(ctx, leaderOp{
		method: "Transfer",
		args:   func() (any, error) { return &TransferArgs{ID: id}, nil },
		local:  func(context.Context) (any, error) { return nil, n.transferAsLeader(id) },
	})
	return err
}

// StepDown hands this member's leadership to the most up-to-date voter; it
// never acts on another member (ErrNotLeader when this one does not lead).
func (n *Node) StepDown() error { return n.transferAsLeader("") }

func (n *Node) transferAsLeader(id string) error {
	if !n.IsLeader() {
		return ErrNotLeader
	}
	if id == "" {
		return n.raft.LeadershipTransfer().Error()
	}
	conf, err := n.configuration()
	if err != nil {
		return err
	}
	for _, s := range conf.Servers {
		if string(s.ID) == id {
			return n.raft.LeadershipTransferToServer(s.ID, s.Address).Error()
		}
	}
	return fmt.Errorf("%w: %s", ErrUnknownMember, id)
}

func (n *Node) configuration() (raft.Configuration, error) {
	fut := n.raft.GetConfiguration()
	if err := fut.Error(); err != nil {
		return raft.Configuration{}, fmt.Errorf("read configuration: %w", err)
	}
	return fut.Configuration(), nil
}

// promoteCaughtUpNonvoters makes a non-voter a voter once its applied index
// stayed within PromoteMaxLag of the leader's last index for PromoteAfter.
func (n *Node) promoteCaughtUpNonvoters() {
	fut := n.raft.GetConfiguration()
	if fut.Error() != nil {
		return
	}
	now := time.Now()
	last := n.raft.LastIndex()
	for _, s := range fut.Configuration().Servers {
		if s.Suffrage != raft.Nonvoter {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
		st, err := n.memberStatus(ctx, string(s.Address))
		cancel()
		if err != nil || st.RaftAppliedIndex+n.cfg.PromoteMaxLag < last {
			delete(n.promotions, s.ID)
			continue
		}
		since, ok := n.promotions[s.ID]
		if !ok {
			n.promotions[s.ID] = now
			continue
		}
		if now.Sub(since) < n.cfg.PromoteAfter {
			continue
		}
		if err := n.raft.AddVoter(s.ID, s.Address, fut.Index(), membershipTimeout).Error(); err != nil {
			n.logger.Warn("promotion failed", "id", s.ID, "error", err)
			continue
		}
		delete(n.promotions, s.ID)
		n.logger.Info("member promoted to voter", "id", s.ID, "applied", st.RaftAppliedIndex, "leader_last", last)
	}
}

// reconcileMemberDirectory keeps the replicated member directory in line
// with the Raft configuration, so any member can name every member's client
// and admin addresses. Members missing from the directory, or listed with
// another cluster address, are published; with full set, every member's
// addresses are re-read and republished if they changed.
func (n *Node) reconcileMemberDirectory(full bool) {
	conf, err := n.configuration()
	if err != nil {
		return
	}
	known := map[string]fsm.Member{}
	for _, m := range n.fsm.Members() {
		known[m.ID] = m
	}
	inConf := map[string]bool{}
	for _, s := range conf.Servers {
		inConf[string(s.ID)] = true
		m, ok := known[string(s.ID)]
		if ok && m.ClusterAddr == string(s.Address) && !full {
			continue
		}
		if fresh, ok2 := n.memberEntry(s); ok2 && (!ok || fresh != m) {
			n.applyMemberChange(fsm.SetMemberType, &fsm.SetMember{Member: fresh})
		}
	}
	for id := range known {
		if !inConf[id] {
			n.applyMemberChange(fsm.RemoveMemberType, &fsm.RemoveMember{ID: id})
		}
	}
}

// memberEntry reads a member's addresses; false if it did not answer.
func (n *Node) memberEntry(s raft.Server) (fsm.Member, bool) {
	st := n.Status()
	if string(s.ID) != n.cfg.ID {
		ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
		var err error
		st, err = n.memberStatus(ctx, string(s.Address))
		cancel()
		if err != nil {
			return fsm.Member{}, false
		}
	}
	return fsm.Member{ID: string(s.ID), ClientAddr: st.ClientAddr, ClusterAddr: string(s.Address), HTTPAddr: st.HTTPAddr}, true
}

func (n *Node) applyMemberChange(t fsm.CommandType, cmd any) {
	ctx, cancel := context.WithTimeout(context.Background(), n.cfg.ApplyTimeout)
	defer cancel()
	if _, err := n.applyAsLeader(ctx, t, cmd); err != nil {
		n.logger.Warn("member directory update failed", "command", t, "error", err)
	}
}
