package cluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// Apply makes a client- or broker-originated write: the leader proposes it,
// a follower forwards it to the leader (see onLeader for the retry rules).
// A follower answers once the leader has applied it, and the reads it
// serves after that wait until its own state shows it (AwaitVisible).
// The result is the FSM's answer (state.RegisterResult, state.WritePermResult
// for the write-permission commands, nil otherwise). Commands only a leader
// decides (fsm.LeaderOnly) are refused here.
func (n *Node) Apply(ctx context.Context, t fsm.CommandType, cmd any) (any, error) {
	if !fsm.IsForwardable(t) {
		return nil, fmt.Errorf("%w: %s", ErrNotForwardable, t)
	}
	if reg, ok := cmd.(*state.RegisterBroker); ok {
		return n.Register(ctx, reg)
	}
	buf, err := fsm.Encode(t, cmd)
	if err != nil {
		return nil, err
	}
	if buf, err = n.audit.stamp(ctx, t, buf, CallerAnonymous); err != nil {
		return nil, err
	}
	id, buf, err := n.requests.identify(buf)
	if err != nil {
		return nil, err
	}
	defer n.requests.done(id)
	res, err := n.onLeader(ctx, leaderOp{
		method:       forwardMethod,
		args:         func() (any, error) { return &ForwardArgs{From: n.cfg.ID, Command: buf}, nil },
		local:        func(ctx context.Context) (any, error) { return n.proposer.applyEncoded(ctx, t, buf) },
		decode:       func(b []byte) (any, error) { return fsm.DecodeResult(t, b) },
		visibleLater: true,
	})
	n.stats.countOutcome(err)
	if err == nil {
		logWrite(n.logger, cmd)
	}
	return res, err
}

// ApplyLeaderOnly proposes a command the leader decides itself
// (fsm.LeaderOnly, such as acknowledging a min-broker-id notice) when this
// member is the leader in office. It never forwards: on any other member it
// fails with ErrNotLeader, and a forwardable command belongs to Apply.
func (n *Node) ApplyLeaderOnly(ctx context.Context, t fsm.CommandType, cmd any) (any, error) {
	if fsm.IsForwardable(t) {
		return nil, fmt.Errorf("cluster: %s is a client write, proposed through Apply", t)
	}
	if !n.LeaderReady() {
		return nil, ErrNotLeader
	}
	return n.proposer.apply(ctx, t, cmd)
}

// countOutcome counts a failed write by whether it may have been applied.
func (s *Stats) countOutcome(err error) {
	switch {
	case err == nil:
	case errors.Is(err, ErrOutcomeUnknown), errors.Is(err, fsm.ErrSuperseded):
		s.WritesOutcomeUnknown.Add(1)
	case errors.Is(err, ErrNoLeader), errors.Is(err, ErrNotLeader), errors.Is(err, ErrLeaderNotReady):
		s.WritesNotApplied.Add(1)
	}
}

// Register handles REGISTER_BROKER. A registration that would change
// nothing is a heartbeat: it writes no log entry on any member and is
// answered from local state. Any other is applied by the leader, which
// answers from the state right after applying it; reads on this member
// then wait until it shows the registration, as after Apply.
func (n *Node) Register(ctx context.Context, cmd *state.RegisterBroker) (state.RegisterResult, error) {
	// Read before planning: if it has not moved when this member proposes
	// the registration as leader, the plan still holds (see plannedAt).
	planned := plannedAt{gen: n.fsm.Generation(), ok: true}
	if !n.fsm.WouldChange(cmd) {
		n.stats.RegistersDeduped.Add(1)
		n.lessor.Heard(cmd.Key(), liveness.ConnNone)
		return n.fsm.RegisterResult(cmd), nil
	}
	// The member that took the registration stamps it, so a forwarded one
	// is encoded once here and proposed by the leader as it came.
	stamped := *cmd
	stamped.StampMillis = clockOr(n.cfg.WallClock)().UnixMilli()
	encoded, err := fsm.Encode(fsm.RegisterBrokerType, &stamped)
	if err != nil {
		return state.RegisterResult{}, err
	}
	id, encoded, err := n.requests.identify(encoded)
	if err != nil {
		return state.RegisterResult{}, err
	}
	defer n.requests.done(id)
	reg := proposedRegistration{cmd: &stamped, entry: encoded, planned: planned}
	if p, ok := fsm.RegistrationProposal(id, &stamped); ok {
		reg.decoded = &p
	}
	res, err := n.onLeader(ctx, leaderOp{
		method: forwardMethod,
		args:   func() (any, error) { return &ForwardArgs{From: n.cfg.ID, Command: encoded}, nil },
		local: func(ctx context.Context) (any, error) {
			r, _, err := n.proposer.register(ctx, reg)
			return r, err
		},
		decode:       func(b []byte) (any, error) { return fsm.DecodeResult(fsm.RegisterBrokerType, b) },
		visibleLater: true,
	})
	n.stats.countOutcome(err)
	r, _ := res.(state.RegisterResult)
	return r, err
}

// RegisterUnchanged is Register for a registration the caller recognised,
// without decoding it, as one that changes nothing: it counts it and
// refreshes the broker's liveness. It reports whether the broker is
// registered.
func (n *Node) RegisterUnchanged(key state.BrokerKey) bool {
	if !n.Heartbeat(key) {
		return false
	}
	n.stats.RegistersDeduped.Add(1)
	return true
}

// Heartbeat refreshes a registered broker's liveness (QUERY_DATA_VERSION,
// BROKER_HEARTBEAT). It writes nothing. It reports whether the broker is
// registered.
func (n *Node) Heartbeat(key state.BrokerKey) bool {
	if _, ok := n.fsm.Registration(key); !ok {
		return false
	}
	n.lessor.Heard(key, liveness.ConnNone)
	return true
}

// plannedAt is the FSM generation read before a registration was found to
// change something, on this member; ok is false when it was not planned
// here. Every applied change moves the generation, so while it has not
// moved the registration still changes something.
type plannedAt struct {
	gen uint64
	ok  bool
}

// still reports whether a plan made at p holds against f's current state.
func (p plannedAt) still(f *fsm.FSM) bool { return p.ok && f.Generation() == p.gen }

// proposedRegistration is a registration on its way to the log: the
// command, its entry with its request id (nil when the caller has none),
// what that entry decodes to when known, and where it was planned.
type proposedRegistration struct {
	cmd     *state.RegisterBroker
	entry   []byte
	decoded *fsm.Proposal
	planned plannedAt
}

// logWrite logs the operator-originated changes an operator wants to find
// in the logs later, on the member that took the request. Broker arrivals,
// departures and expiries are logged by every member's FSM as they are
// applied.
func logWrite(logger hclog.Logger, cmd any) {
	switch c := cmd.(type) {
	case *state.WipeWritePerm:
		logger.Info("write permission wiped", "broker", c.BrokerName)
	case *state.AddWritePerm:
		logger.Info("write permission added", "broker", c.BrokerName)
	case *state.DeleteTopic:
		logger.Info("topic deleted", "topic", c.Topic, "cluster", c.ClusterName)
	case *state.RegisterTopic:
		logger.Info("topic registered", "topic", c.Topic, "brokers", len(c.QueueDatas))
	case *state.PutKV, *state.DeleteKV:
		logger.Debug("kv config changed", "command", fmt.Sprintf("%T", c))
	}
}
