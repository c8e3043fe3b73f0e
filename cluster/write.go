package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/hashicorp/raft"
	"github.com/raftns/raftns/fsm"
)

// Apply makes a client- or broker-originated write: the leader proposes it,
// a follower forwards it to the leader (hop limit one). While there is no
// leader it holds and retries with jittered backoff for up to ForwardHold,
// then fails with ErrNoLeader. The result is the FSM's answer
// (fsm.RegisterResult, fsm.WritePermResult for the write-permission
// commands, nil otherwise).
func (n *Node) Apply(ctx context.Context, t fsm.CommandType, cmd any) (any, error) {
	var payload []byte
	return n.retryWrite(ctx, func(ctx context.Context, leaderAddr string, lastTry bool) (any, error) {
		if leaderAddr == "" {
			return n.applyLocally(ctx, t, cmd)
		}
		if payload == nil {
			var err error
			if payload, err = fsm.Encode(t, cmd); err != nil {
				return nil, err
			}
		}
		return n.forward(ctx, leaderAddr, payload, lastTry)
	})
}

// applyLocally applies a write on this member as leader; it serves both
// local writes and those forwarded by followers.
func (n *Node) applyLocally(ctx context.Context, t fsm.CommandType, cmd any) (any, error) {
	if reg, ok := cmd.(*fsm.RegisterBroker); ok && t == fsm.RegisterBrokerType {
		return n.registerAsLeader(ctx, reg)
	}
	return n.applyAsLeader(ctx, t, cmd)
}

// Register handles REGISTER_BROKER. A registration that would change
// nothing is a heartbeat: it writes no log entry on any member and is
// answered from local state. Any other is applied by the leader, which
// answers from the state right after applying it.
func (n *Node) Register(ctx context.Context, cmd *fsm.RegisterBroker) (fsm.RegisterResult, error) {
	if !n.fsm.WouldChange(cmd) {
		n.stats.RegistersDeduped.Add(1)
		n.heard(cmd.Key())
		return n.fsm.RegisterResult(cmd), nil
	}
	res, err := n.Apply(ctx, fsm.RegisterBrokerType, cmd)
	if err != nil {
		return fsm.RegisterResult{}, err
	}
	r, _ := res.(fsm.RegisterResult)
	return r, nil
}

// Heartbeat refreshes a registered broker's liveness (QUERY_DATA_VERSION,
// BROKER_HEARTBEAT). It writes nothing. It reports whether the broker is
// registered.
func (n *Node) Heartbeat(key fsm.BrokerKey) bool {
	if _, ok := n.fsm.Registration(key); !ok {
		return false
	}
	n.heard(key)
	return true
}

// registerAsLeader applies a registration on the leader unless, by now, it
// would change nothing (a duplicate from another member got there first).
func (n *Node) registerAsLeader(ctx context.Context, cmd *fsm.RegisterBroker) (fsm.RegisterResult, error) {
	if err := n.waitLeaderReady(ctx.Done()); err != nil {
		return fsm.RegisterResult{}, err
	}
	n.heard(cmd.Key())
	if !n.fsm.WouldChange(cmd) {
		n.stats.RegistersDeduped.Add(1)
		return n.fsm.RegisterResult(cmd), nil
	}
	stamped := *cmd
	stamped.StampMillis = time.Now().UnixMilli()
	entries, err := fsm.SplitRegistration(&stamped)
	if err != nil {
		return fsm.RegisterResult{}, err
	}
	var res any
	for _, e := range entries {
		if res, err = n.applyEncodedAsLeader(ctx, fsm.RegisterBrokerType, e); err != nil {
			return fsm.RegisterResult{}, err
		}
	}
	n.stats.RegistersWritten.Add(1)
	r, _ := res.(fsm.RegisterResult)
	return r, nil
}

// applyAsLeader proposes a command on this member, which must be a ready
// leader.
func (n *Node) applyAsLeader(ctx context.Context, t fsm.CommandType, cmd any) (any, error) {
	if err := n.waitLeaderReady(ctx.Done()); err != nil {
		return nil, err
	}
	buf, err := fsm.Encode(t, cmd)
	if err != nil {
		return nil, err
	}
	res, err := n.applyEncodedAsLeader(ctx, t, buf)
	if err == nil {
		n.logWrite(t, cmd)
	}
	return res, err
}

// logWrite logs, on the leader, the operator-originated changes an operator
// wants to find in the logs later. Broker arrivals, departures and expiries
// are logged by every member's FSM as they are applied.
func (n *Node) logWrite(t fsm.CommandType, cmd any) {
	switch c := cmd.(type) {
	case *fsm.WipeWritePerm:
		n.logger.Info("write permission wiped", "broker", c.BrokerName)
	case *fsm.AddWritePerm:
		n.logger.Info("write permission added", "broker", c.BrokerName)
	case *fsm.DeleteTopic:
		n.logger.Info("topic deleted", "topic", c.Topic, "cluster", c.ClusterName)
	case *fsm.RegisterTopic:
		n.logger.Info("topic registered", "topic", c.Topic, "brokers", len(c.QueueDatas))
	case *fsm.PutKV, *fsm.DeleteKV:
		n.logger.Debug("kv config changed", "command", t)
	}
}

// applyEncodedAsLeader proposes an encoded entry; it is the only path to
// raft.Apply.
func (n *Node) applyEncodedAsLeader(ctx context.Context, t fsm.CommandType, buf []byte) (any, error) {
	if err := n.waitLeaderReady(ctx.Done()); err != nil {
		return nil, err
	}
	timeout := n.cfg.ApplyTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl))
	}
	fut := n.raft.Apply(buf, timeout)
	if err := fut.Error(); err != nil {
		switch {
		case errors.Is(err, raft.ErrNotLeader), errors.Is(err, raft.ErrLeadershipLost),
			errors.Is(err, raft.ErrLeadershipTransferInProgress), errors.Is(err, raft.ErrEnqueueTimeout):
			return nil, fmt.Errorf("%w: %v", ErrNotLeader, err)
		}
		return nil, fmt.Errorf("apply %s: %w", t, err)
	}
	if e, ok := fut.Response().(error); ok {
		return nil, e
	}
	return fut.Response(), nil
}

// forward sends an encoded command to the leader and decodes its answer.
func (n *Node) forward(ctx context.Context, leaderAddr string, payload []byte, fresh bool) (any, error) {
	n.stats.ForwardedOut.Add(1)
	var reply ForwardReply
	if err := n.pool.call(ctx, leaderAddr, "Forward", &ForwardArgs{From: n.cfg.ID, Command: payload}, &reply, fresh); err != nil {
		n.stats.ForwardFailures.Add(1)
		return nil, fmt.Errorf("%w: %v", ErrNotLeader, err)
	}
	if err := kindError(reply.ErrKind, reply.Err); err != nil {
		return nil, err
	}
	switch {
	case reply.Register != nil:
		return *reply.Register, nil
	case reply.WritePerm != nil:
		return *reply.WritePerm, nil
	}
	return nil, nil
}

// writeAttempt performs one try of a write: leaderAddr is empty when this
// member is the leader, else the leader's cluster address.
type writeAttempt func(ctx context.Context, leaderAddr string, lastTry bool) (any, error)

// retryWrite runs attempts until one succeeds, fails with a non-retryable
// error, or the hold bound passes (consensus-lessons 16).
func (n *Node) retryWrite(ctx context.Context, attempt writeAttempt) (any, error) {
	hold := time.Now().Add(n.cfg.ForwardHold)
	if dl, ok := ctx.Deadline(); ok && dl.Before(hold) {
		hold = dl
	}
	backoff := 20 * time.Millisecond
	lastErr := ErrNoLeader
	for {
		lastTry := time.Until(hold) < 2*backoff
		var res any
		var err error
		leaderID, leaderAddr := n.Leader()
		switch {
		case n.IsLeader():
			res, err = attempt(ctx, "", lastTry)
		case leaderAddr != "" && leaderID != n.cfg.ID:
			res, err = attempt(ctx, leaderAddr, lastTry)
		default:
			err = ErrNoLeader
		}
		if err == nil || !retryable(err) {
			return res, err
		}
		lastErr = err
		if time.Now().After(hold) || ctx.Err() != nil {
			return nil, fmt.Errorf("%w (last error: %v)", ErrNoLeader, lastErr)
		}
		select {
		case <-time.After(jitter(backoff)):
		case <-ctx.Done():
		case <-n.shutdownCh:
			return nil, ErrShutdown
		}
		backoff = min(backoff*2, 500*time.Millisecond)
	}
}

func retryable(err error) bool {
	return errors.Is(err, ErrNotLeader) || errors.Is(err, ErrNoLeader) || errors.Is(err, ErrLeaderNotReady)
}

// jitter returns d plus up to 50% random extra.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration(rand.Int64N(int64(d)/2+1))
}
