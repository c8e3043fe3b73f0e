package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/adminapi"
)

// membershipTimeout bounds one Raft configuration change.
const membershipTimeout = 10 * time.Second

// statusProbeTimeout bounds asking another member for its status.
const statusProbeTimeout = time.Second

// JoinArgs asks the leader to admit a member as a non-voter.
type JoinArgs struct {
	ID          string
	ClusterAddr string
	// Release is the joining member's; a build that predates it sends
	// none, which reads as buildinfo.Baseline.
	Release string
	// NonVoter keeps the member a non-voter (peers add --non-voter); a
	// leader of a release that predates it reads none.
	NonVoter bool
}

// RemoveArgs asks the leader to remove a member. A leader of a release
// without drains reads ID and Force only, and removes at once.
type RemoveArgs struct {
	ID    string
	Force bool
	// DrainMillis is the drain the operator asked for, when DrainGiven;
	// otherwise the leader's default applies.
	DrainMillis int64
	DrainGiven  bool
}

func removeArgs(id string, opts RemoveOptions) *RemoveArgs {
	a := &RemoveArgs{ID: id, Force: opts.Force}
	if opts.Drain >= 0 {
		a.DrainMillis, a.DrainGiven = opts.Drain.Milliseconds(), true
	}
	return a
}

// options are the removal's options as the operator gave them.
func (a *RemoveArgs) options() RemoveOptions {
	opts := RemoveOptions{Force: a.Force, Drain: DefaultDrain}
	if a.DrainGiven {
		opts.Drain = time.Duration(min(max(a.DrainMillis, 0), MaxDrain.Milliseconds())) * time.Millisecond
	}
	return opts
}

// TransferArgs asks the leader to hand leadership to a member ("" for the
// most up-to-date voter).
type TransferArgs struct {
	ID string
	// From is the leader the member that took the request knew when it
	// took it ("" when none). A leader that is not From, and is the
	// member asked for or none was named, is the transfer's outcome: a
	// retried request then hands leadership on no further. A member of
	// an older release neither sends nor reads it.
	From string
}

// Join outcomes.
const (
	JoinedAsNonvoter = "added as non-voter; promoted to voter once caught up"
	AlreadyMember    = "already a member with this address; nothing changed"
	// JoinedKeptNonvoter is the outcome of peers add --non-voter.
	JoinedKeptNonvoter = "added as non-voter; kept so until promoted (peers promote)"
)

// membership makes the leader's changes to the Raft configuration: admit,
// remove, transfer leadership, promote caught-up non-voters, and keep the
// replicated member directory in line (docs/contributors/design.md, "Membership").
// Every method but removeSelf acts on this member only; the Node's public
// methods bring requests here from any member.
type membership struct {
	cfg    *Config
	logger hclog.Logger
	raft   *raft.Raft
	fsm    *fsm.FSM
	// promotions remembers since when each non-voter has been caught up.
	promotions map[raft.ServerID]time.Time
	// propose applies a command as the leader.
	propose func(ctx context.Context, t fsm.CommandType, cmd any) (any, error)
	// probe asks another member for its status; self is this member's.
	probe func(ctx context.Context, addr string) (adminapi.Status, error)
	self  func() adminapi.Status
	// removeViaLeader asks whoever leads to remove a member.
	removeViaLeader func(ctx context.Context, id string, opts RemoveOptions) (adminapi.RemovePeer, error)
	// drains times the drains of members being removed; drainRefusal
	// says why a drain may not be replicated (nil when it may).
	drains       *drains
	drainRefusal func() error
	// zonesPublished is set once a full pass over the member directory
	// ran while the cluster version allowed zones (directory.go).
	zonesPublished bool
	// record writes an audit record of the leader's own decision.
	record func(ctx context.Context, rec state.AuditRecord) error
}

func (m *membership) isLeader() bool { return m.raft.State() == raft.Leader }

func (m *membership) joinAsLeader(id, addr string, nonVoter bool) (string, error) {
	if !m.isLeader() {
		return "", ErrNotLeader
	}
	conf, err := currentConfiguration(m.raft)
	if err != nil {
		return "", err
	}
	outcome := JoinedAsNonvoter
	for _, s := range conf.Servers {
		switch {
		case string(s.ID) == id && string(s.Address) == addr:
			return AlreadyMember, nil
		case string(s.ID) == id || string(s.Address) == addr:
			m.logger.Warn("replacing stale member entry", "id", s.ID, "address", s.Address)
			if err := m.removeServer(s, false); err != nil {
				return "", err
			}
			outcome = fmt.Sprintf("replaced %s at %s, then %s", s.ID, s.Address, JoinedAsNonvoter)
		}
	}
	if err := m.admitClientAddr(id, addr); err != nil {
		return "", err
	}
	if nonVoter {
		// Recorded first, so that the promotion loop never sees the
		// member without it.
		standing, _ := m.fsm.MemberStanding(id)
		standing.ID, standing.NonVoter = id, true
		if !m.recordStanding(standing) {
			return "", fmt.Errorf("%w: recording that %s stays a non-voter failed", ErrNoLeader, id)
		}
		outcome = strings.ReplaceAll(outcome, JoinedAsNonvoter, JoinedKeptNonvoter)
	}
	if err := m.raft.AddNonvoter(raft.ServerID(id), raft.ServerAddress(addr), 0, membershipTimeout).Error(); err != nil {
		return "", fmt.Errorf("add non-voter %s: %w", id, err)
	}
	m.logger.Info("member added as non-voter", "id", id, "address", addr)
	return outcome, nil
}

func (m *membership) removeAsLeader(ctx context.Context, id string, opts RemoveOptions) (adminapi.RemovePeer, error) {
	if !m.isLeader() {
		return adminapi.RemovePeer{}, ErrNotLeader
	}
	conf, err := currentConfiguration(m.raft)
	if err != nil {
		return adminapi.RemovePeer{}, err
	}
	if s, ok := serverOf(conf, id); ok {
		return m.startDrain(ctx, s, opts)
	}
	return adminapi.RemovePeer{}, fmt.Errorf("%w: %s", ErrUnknownMember, id)
}

func (m *membership) removeServer(s raft.Server, force bool) error {
	if s.Suffrage == raft.Voter && !force {
		if err := m.checkQuorumWithout(s.ID); err != nil {
			return err
		}
	}
	if err := m.raft.RemoveServer(s.ID, 0, membershipTimeout).Error(); err != nil {
		// Office lost around the change: the caller retries at the new
		// leader, or learns that the change may have been made.
		if lerr := leadershipErr(err); lerr != nil {
			err = lerr
		}
		return fmt.Errorf("remove %s: %w", s.ID, err)
	}
	m.logger.Info("member removed", "id", s.ID, "address", s.Address)
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.ApplyTimeout)
	defer cancel()
	if _, err := m.propose(ctx, fsm.RemoveMemberType, &state.RemoveMember{ID: string(s.ID)}); err != nil {
		m.logger.Warn("member directory not updated; the leader will retry", "id", s.ID, "error", err)
	}
	return nil
}

// removeSelf hands leadership to another voter and asks it to remove us.
func (m *membership) removeSelf(ctx context.Context, force bool) error {
	if err := m.checkQuorumWithout(raft.ServerID(m.cfg.ID)); err != nil && !force {
		return err
	}
	if err := m.raft.LeadershipTransfer().Error(); err != nil {
		if errors.Is(err, raft.ErrNotLeader) || errors.Is(err, raft.ErrLeadershipTransferInProgress) {
			// Office was lost, or is being handed over, since the check:
			// ErrNotLeader has the request retried at the new leader,
			// which removes this member as any other.
			return fmt.Errorf("%w: transfer leadership before removing the leader: %v", ErrNotLeader, err)
		}
		return fmt.Errorf("transfer leadership before removing the leader: %w", err)
	}
	m.logger.Info("leadership transferred; asking the new leader to remove this member")
	_, err := m.removeViaLeader(ctx, m.cfg.ID, RemoveOptions{Force: force})
	if errors.Is(err, ErrUnknownMember) {
		// This member was in the configuration when the removal began, so
		// a leader that no longer finds it saw the removal done: by an
		// attempt whose answer was lost (its leader lost office before
		// answering, and the request was retried), or by someone else.
		m.logger.Info("this member is already out of the configuration")
		return nil
	}
	return err
}

// checkQuorumWithout refuses to remove a voter when the voters left that
// answer would be fewer than a quorum of the new configuration, or when it
// would go from two voters to one (etcd mayRemoveMember).
func (m *membership) checkQuorumWithout(id raft.ServerID) error {
	conf, err := currentConfiguration(m.raft)
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
		if m.reachable(s) {
			connected++
		}
	}
	if need := len(remaining)/2 + 1; connected < need {
		return fmt.Errorf("%w: %d of %d remaining voters reachable, quorum needs %d", ErrQuorumAtRisk, connected, len(remaining), need)
	}
	return nil
}

func (m *membership) reachable(s raft.Server) bool {
	if string(s.ID) == m.cfg.ID {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), statusProbeTimeout)
	defer cancel()
	st, err := m.probe(ctx, string(s.Address))
	return err == nil && st.LastContactMillis >= 0 && time.Duration(st.LastContactMillis)*time.Millisecond < m.cfg.MaxStale
}

// transferFrom hands leadership from the member from to id ("" for the
// most up-to-date voter) when this member leads. Leadership already moved
// off from onto this member as asked counts as done: a transfer request
// retried once the leader changed (its first try cut short by the very
// change it asked for) must not move leadership again.
func (m *membership) transferFrom(from, id string) error {
	if !m.isLeader() {
		return ErrNotLeader
	}
	if from != "" && from != m.cfg.ID && (id == "" || id == m.cfg.ID) {
		return nil
	}
	return transferRetryable(m.transferAsLeader(id))
}

// transferRetryable makes a transfer that met another one in progress (a
// retry of its own forwarded request, whose first try was cut short, or a
// second operator's) retryable: the caller tries again once leadership
// has moved or the transfer failed, and the new leader answers it done.
func transferRetryable(err error) error {
	if errors.Is(err, raft.ErrLeadershipTransferInProgress) {
		return fmt.Errorf("%w: %v", ErrLeaderNotReady, err)
	}
	return err
}

func (m *membership) transferAsLeader(id string) error {
	if !m.isLeader() {
		return ErrNotLeader
	}
	if id == "" {
		return m.raft.LeadershipTransfer().Error()
	}
	conf, err := currentConfiguration(m.raft)
	if err != nil {
		return err
	}
	for _, s := range conf.Servers {
		if string(s.ID) == id {
			return m.raft.LeadershipTransferToServer(s.ID, s.Address).Error()
		}
	}
	return fmt.Errorf("%w: %s", ErrUnknownMember, id)
}

// currentConfiguration reads the latest Raft configuration.
func currentConfiguration(r *raft.Raft) (raft.Configuration, error) {
	fut := r.GetConfiguration()
	if err := fut.Error(); err != nil {
		return raft.Configuration{}, fmt.Errorf("read configuration: %w", err)
	}
	return fut.Configuration(), nil
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

// configurationIDs lists the ids of the members in r's latest
// configuration, voters and non-voters; nil when it cannot be read.
func configurationIDs(r *raft.Raft) []string {
	fut := r.GetConfiguration()
	if fut.Error() != nil {
		return nil
	}
	return serverIDs(fut.Configuration())
}

// serverIDs lists the ids of the members of conf.
func serverIDs(conf raft.Configuration) []string {
	ids := make([]string, 0, len(conf.Servers))
	for _, s := range conf.Servers {
		ids = append(ids, string(s.ID))
	}
	return ids
}

// otherVoters counts the voters in r's latest configuration other than the
// member id.
func otherVoters(r *raft.Raft, id string) int {
	fut := r.GetConfiguration()
	if fut.Error() != nil {
		return 0
	}
	count := 0
	for _, s := range fut.Configuration().Servers {
		if s.Suffrage == raft.Voter && string(s.ID) != id {
			count++
		}
	}
	return count
}
