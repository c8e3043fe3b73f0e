package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/feature"
	"github.com/raftns/raftns/internal/poll"
)

// ErrNotRunning reports a member that was added to the configuration but
// does not take part in the cluster: it did not answer, or it stopped its
// Raft node.
var ErrNotRunning = errors.New("cluster: the member does not run as part of the cluster")

// Outcomes of SetSuffrage.
const (
	PromotedToVoter      = "promoted to voter"
	PromotedOnceCaughtUp = "no longer kept a non-voter; promoted to voter once caught up"
	AlreadyVoter         = "already a voter; nothing changed"
	DemotedToNonvoter    = "demoted to non-voter; kept so until promoted (peers promote)"
	KeptNonvoter         = "kept a non-voter"
)

// SuffrageArgs asks the leader to make a member a voter (Voter) or keep it
// a non-voter.
type SuffrageArgs struct {
	ID    string
	Voter bool
}

// AddOptions are the options of an operator's "peers add".
type AddOptions struct {
	// NonVoter keeps the member a non-voter: it serves reads and forwards
	// writes but never votes and never counts for quorum, until promoted.
	NonVoter bool
}

// SetSuffrage is the operator's "peers promote" (voter) and "peers demote"
// (a non-voter kept so). Promotion records that the member is no longer
// kept a non-voter and makes it a voter at once when it has caught up and
// votes on recorded storage; otherwise the leader promotes it once it
// has. Demotion refuses to take away a vote the quorum needs.
func (n *Node) SetSuffrage(ctx context.Context, id string, voter bool) (string, error) {
	if err := n.Gate().Check(feature.StorageIdentity); err != nil {
		return "", err
	}
	res, err := n.onLeader(ctx, leaderOp{
		method:  feature.Method(feature.StorageIdentity, "Suffrage"),
		args:    func() (any, error) { return &SuffrageArgs{ID: id, Voter: voter}, nil },
		local:   func(context.Context) (any, error) { return n.members.setSuffrageAsLeader(id, voter) },
		decode:  func(b []byte) (any, error) { return string(b), nil },
		visible: true,
	})
	outcome, _ := res.(string)
	return outcome, err
}

// Suffrage serves SetSuffrage on the leader.
func (e *rpcEndpoint) Suffrage(args *SuffrageArgs, reply *LeaderReply) error {
	return e.runChange(reply, membershipTimeout+e.n.cfg.ApplyTimeout, func(context.Context) ([]byte, error) {
		outcome, err := e.n.members.setSuffrageAsLeader(args.ID, args.Voter)
		return []byte(outcome), err
	})
}

func (m *membership) setSuffrageAsLeader(id string, voter bool) (string, error) {
	if !m.isLeader() {
		return "", ErrNotLeader
	}
	conf, err := currentConfiguration(m.raft)
	if err != nil {
		return "", err
	}
	s, ok := serverOf(conf, id)
	if !ok {
		return "", fmt.Errorf("%w: %s", ErrUnknownMember, id)
	}
	standing, _ := m.fsm.MemberStanding(id)
	standing.ID = id
	if voter {
		return m.promote(s, standing)
	}
	return m.demote(conf, s, standing)
}

func (m *membership) promote(s raft.Server, standing state.MemberStanding) (string, error) {
	if standing.NonVoter {
		standing.NonVoter = false
		if !m.recordStanding(standing) {
			return "", fmt.Errorf("%w: recording the promotion failed", ErrNoLeader)
		}
	}
	if s.Suffrage == raft.Voter {
		return AlreadyVoter, nil
	}
	st, ok := m.statusOf(s)
	if !ok || st.RaftAppliedIndex+m.cfg.PromoteMaxLag < m.raft.LastIndex() || !m.promotable(s, st) {
		return PromotedOnceCaughtUp, nil
	}
	if err := m.raft.AddVoter(s.ID, s.Address, 0, membershipTimeout).Error(); err != nil {
		return "", fmt.Errorf("promote %s: %w", s.ID, err)
	}
	delete(m.promotions, s.ID)
	m.logger.Info("member promoted to voter by an operator", "id", s.ID)
	m.audit(state.AuditRecord{Kind: state.AuditMemberPromote, Detail: "id=" + string(s.ID), Outcome: state.OutcomeApplied})
	return PromotedToVoter, nil
}

func (m *membership) demote(conf raft.Configuration, s raft.Server, standing state.MemberStanding) (string, error) {
	if s.Suffrage == raft.Voter {
		if string(s.ID) == m.cfg.ID {
			return "", fmt.Errorf("%w: %s leads; transfer leadership first (raftnsctl leader transfer)", ErrQuorumAtRisk, s.ID)
		}
		if err := m.quorumAnswersWithout(conf, s.ID); err != nil {
			return "", err
		}
	}
	if !standing.NonVoter {
		standing.NonVoter = true
		if !m.recordStanding(standing) {
			return "", fmt.Errorf("%w: recording the demotion failed", ErrNoLeader)
		}
	}
	if s.Suffrage != raft.Voter {
		return KeptNonvoter, nil
	}
	if err := m.raft.DemoteVoter(s.ID, 0, membershipTimeout).Error(); err != nil {
		return "", fmt.Errorf("demote %s: %w", s.ID, err)
	}
	m.logger.Info("member demoted to non-voter by an operator", "id", s.ID)
	m.audit(state.AuditRecord{Kind: state.AuditMemberDemote, Detail: "id=" + string(s.ID), Outcome: state.OutcomeApplied})
	return DemotedToNonvoter, nil
}

// runningWait bounds how long "peers add" waits for the added member to
// show it runs as part of the cluster.
const runningWait = 30 * time.Second

// waitRunning waits until the member id at addr, just added, runs as part
// of the cluster: it answers, has the configuration with itself in it and
// has heard from a leader. A member that stopped its Raft node, having
// found itself removed (it was started on the data of a removed member),
// is taken out of the configuration again and reported.
func (n *Node) waitRunning(ctx context.Context, id, addr string) error {
	ctx, cancel := context.WithTimeout(ctx, runningWait)
	defer cancel()
	var last adminapi.Status
	var lastErr error
	err := poll.Until(ctx, runningWait, 100*time.Millisecond, "member "+id+" running", func() (bool, error) {
		pctx, pcancel := context.WithTimeout(ctx, statusProbeTimeout)
		last, lastErr = n.memberStatus(pctx, addr)
		pcancel()
		switch {
		case lastErr != nil:
			return false, nil
		case last.Membership == adminapi.MembershipRemoved:
			return false, fmt.Errorf("%w: %s at %s stopped its Raft node, finding itself removed: it runs on the data "+
				"of a removed member; stop it, empty its data dir, start it again and add it again", ErrNotRunning, id, addr)
		}
		return slices.Contains(last.Configuration, id) && last.LastContactMillis >= 0, nil
	})
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrNotRunning) {
		if _, rerr := n.RemovePeer(context.Background(), id, RemoveOptions{Force: true, Drain: 0}); rerr != nil {
			n.logger.Warn("taking a member that does not run out of the configuration failed", "id", id, "error", rerr)
		}
		return err
	}
	if lastErr != nil {
		return fmt.Errorf("%w: %s was added as a non-voter but did not answer at %s (%v); start it, or take it out again "+
			"(raftnsctl peers remove %s)", ErrNotRunning, id, addr, lastErr, id)
	}
	return fmt.Errorf("%w: %s was added as a non-voter but has not heard from the leader (%s); see its log, or take it out "+
		"again (raftnsctl peers remove %s)", ErrNotRunning, id, cmpReason(last), id)
}

func cmpReason(st adminapi.Status) string {
	if st.AdmissionReason != "" {
		return "waiting for " + st.AdmissionReason
	}
	return st.ReadyReason
}
