package cluster

import (
	"context"
	"net"
	"net/rpc"
	"strconv"
	"time"

	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/internal/adminapi"
	"github.com/raftns/raftns/internal/deadline"
	"github.com/raftns/raftns/transport"
	"github.com/raftns/raftns/transport/lane"
)

// forwardMethod is the RPC that carries a follower's write to the leader.
const forwardMethod = "Forward"

// ForwardArgs carries a broker- or client-originated write from a follower
// to the leader. Only commands the fsm registry marks Forwardable are
// accepted; expiries and member-directory changes are the leader's own
// decisions (docs/contributors/design.md, "Leader-only liveness").
type ForwardArgs struct {
	From    string
	Command []byte // fsm.Encode output
}

// HeartbeatArgs is one follower's batch of what it heard since its last
// batch (liveness.Batch).
type HeartbeatArgs = liveness.Batch

// StatusArgs asks a member for its status.
type StatusArgs struct{}

// rpcEndpoint is the net/rpc service a member serves on its cluster port.
// The leader-side methods run their operation here and never send it on
// (hop limit one).
type rpcEndpoint struct{ n *Node }

// Forward applies a follower's write if this member is the leader.
// It runs on one of the leader's forward workers. Members that speak the
// forward lane (package lane) send writes there instead.
func (e *rpcEndpoint) Forward(args *ForwardArgs, reply *LeaderReply) error {
	e.n.forwards.Workers.Run(func() { e.forward(args.Command, reply) })
	return nil
}

// forward applies a follower's encoded write, whichever way it came.
func (e *rpcEndpoint) forward(command []byte, reply *LeaderReply) {
	e.n.stats.ForwardedIn.Add(1)
	_ = e.runChange(reply, e.n.cfg.ApplyTimeout, func(ctx context.Context) ([]byte, error) {
		res, index, err := e.n.proposer.forwarded(ctx, command)
		reply.Index = index
		return res, err
	})
}

// JoinAsLeader admits a member.
func (e *rpcEndpoint) JoinAsLeader(args *JoinArgs, reply *LeaderReply) error {
	return e.runChange(reply, membershipTimeout, func(context.Context) ([]byte, error) {
		outcome, err := e.n.members.joinAsLeader(args.ID, args.ClusterAddr, args.NonVoter)
		return []byte(outcome), err
	})
}

// Remove removes a member, on behalf of a member that took the operator's
// request or of a leader that stepped down to be removed.
func (e *rpcEndpoint) Remove(args *RemoveArgs, reply *LeaderReply) error {
	return e.runChange(reply, e.n.cfg.ForwardHold+membershipTimeout, func(ctx context.Context) ([]byte, error) {
		res, err := e.n.members.removeAsLeader(ctx, args.ID, args.options())
		if err != nil {
			return nil, err
		}
		return encodeRemoveResult(res)
	})
}

// Transfer hands leadership over.
func (e *rpcEndpoint) Transfer(args *TransferArgs, reply *LeaderReply) error {
	return e.runChange(reply, membershipTimeout, func(context.Context) ([]byte, error) {
		return nil, e.n.members.transferFrom(args.From, args.ID)
	})
}

// run runs a leader-side operation within timeout and records its outcome
// in reply; the RPC itself always succeeds.
func (e *rpcEndpoint) run(reply *LeaderReply, timeout time.Duration, op func(context.Context) ([]byte, error)) error {
	ctx, cancel := deadline.WithTimeout(context.Background(), timeout)
	defer cancel()
	var err error
	reply.Result, err = op(ctx)
	setReply(reply, err)
	return nil
}

// runChange is run for an operation that may change the replicated state
// on behalf of the member that asked. Its successful reply names the index
// that member must apply before it answers (LeaderReply.Index): the
// operation's own entry when it set one, else everything this member had
// applied when it answered; and the followers learn the commit index soon
// (commitNotice).
func (e *rpcEndpoint) runChange(reply *LeaderReply, timeout time.Duration, op func(context.Context) ([]byte, error)) error {
	err := e.run(reply, timeout, op)
	if reply.ErrKind == lane.KindNone {
		if reply.Index == 0 {
			reply.Index = e.n.fsm.AppliedIndex()
		}
		e.n.proposer.notice.answered()
	}
	return err
}

// Join admits a member as a non-voter; it is what a starting member calls
// on any member it was told to join, which passes it to the leader.
func (e *rpcEndpoint) Join(args *JoinArgs, reply *LeaderReply) error {
	if err := e.n.admits(args); err != nil {
		setReply(reply, err)
		return nil
	}
	return e.run(reply, e.n.cfg.ForwardHold+e.n.cfg.ApplyTimeout, func(ctx context.Context) ([]byte, error) {
		outcome, err := e.n.Join(ctx, args.ID, args.ClusterAddr)
		return []byte(outcome), err
	})
}

// Heartbeats takes a follower's batch into the leader's liveness lessor
// and notes whether the follower is ready.
func (e *rpcEndpoint) Heartbeats(args *HeartbeatArgs, reply *HeartbeatReply) error {
	if !e.n.lessor.Receive(args) {
		var lr LeaderReply
		setReply(&lr, ErrNotLeader)
		reply.ErrKind, reply.Err = lr.ErrKind, lr.Err
		return nil
	}
	now := time.Now()
	// A member of a release that does not say is counted ready while it
	// sends batches.
	e.n.ready.heardFrom(args.From, args.SenderReadiness != liveness.SenderNotReady, now)
	// The follower learns how far behind it is (readiness), and who is
	// ready (the address service).
	reply.Result = strconv.AppendUint(nil, e.n.raft.CommitIndex(), 10)
	reply.ReadyMembers = e.n.ready.leaderReady(e.n.cfg.ID, directoryIDs(e.n.fsm), now)
	return nil
}

// Status reports this member's status.
func (e *rpcEndpoint) Status(_ *StatusArgs, reply *adminapi.Status) error {
	*reply = e.n.Status()
	return nil
}

// serveRPC serves the internal RPCs of e on connections from the mux.
func serveRPC(ln net.Listener, e *rpcEndpoint) {
	srv := rpc.NewServer()
	if err := srv.RegisterName("Cluster", e); err != nil {
		panic(err) // the endpoint's method set is fixed at compile time
	}
	transport.ServeConns(ln, func(c net.Conn) { srv.ServeCodec(transport.NewRPCCodec(c, e.n.logger)) })
}
