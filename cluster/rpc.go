package cluster

import (
	"context"
	"errors"
	"net"
	"net/rpc"
	"sync"
	"time"

	"github.com/raftns/raftns/fsm"
)

// rpcDialTimeout bounds connecting to another member's cluster port.
const rpcDialTimeout = 3 * time.Second

// Error kinds carried in RPC replies, so that the caller can tell a
// retryable "ask someone else" from a domain answer.
const (
	rpcErrNone      = ""
	rpcErrNotLeader = "not-leader"
	rpcErrNotReady  = "not-ready"
	rpcErrOther     = "error"
)

// ForwardArgs carries a broker- or client-originated write from a follower
// to the leader. Commands a member generates itself (expiries) never travel
// this way (consensus-lessons 5).
type ForwardArgs struct {
	From    string
	Command []byte // fsm.Encode output
}

// ForwardReply is the leader's answer to a forwarded write.
type ForwardReply struct {
	ErrKind   string
	Err       string
	Register  *fsm.RegisterResult
	WritePerm *fsm.WritePermResult
}

// HeartbeatArgs is one follower's batch of what it heard since its last
// batch: brokers that registered unchanged or sent heartbeats, the brokers
// with a live connection to it, and the connections that closed.
type HeartbeatArgs struct {
	From    string
	Touched []fsm.BrokerKey
	Held    []fsm.BrokerKey
	Closed  []fsm.BrokerKey
}

// HeartbeatReply acknowledges a batch.
type HeartbeatReply struct{ ErrKind string }

// JoinArgs asks the leader to admit a member as a non-voter.
type JoinArgs struct {
	ID          string
	ClusterAddr string
}

// JoinReply answers a join.
type JoinReply struct {
	ErrKind string
	Err     string
	Outcome string
}

// StatusArgs asks a member for its status.
type StatusArgs struct{}

// rpcEndpoint is the net/rpc service a member serves on its cluster port.
type rpcEndpoint struct{ n *Node }

// Forward applies a forwarded write if this member is the leader. It never
// forwards again (hop limit one).
func (e *rpcEndpoint) Forward(args *ForwardArgs, reply *ForwardReply) error {
	ctx, cancel := context.WithTimeout(context.Background(), e.n.cfg.ApplyTimeout)
	defer cancel()
	t, cmd, err := fsm.Decode(args.Command)
	if err != nil {
		reply.ErrKind, reply.Err = rpcErrOther, err.Error()
		return nil
	}
	res, err := e.n.applyLocally(ctx, t, cmd)
	e.n.stats.ForwardedIn.Add(1)
	reply.ErrKind, reply.Err = errorKind(err)
	switch r := res.(type) {
	case fsm.RegisterResult:
		reply.Register = &r
	case fsm.WritePermResult:
		reply.WritePerm = &r
	}
	return nil
}

// Heartbeats takes a follower's batch into the leader's liveness tracker.
func (e *rpcEndpoint) Heartbeats(args *HeartbeatArgs, reply *HeartbeatReply) error {
	if !e.n.receiveHeartbeats(args) {
		reply.ErrKind = rpcErrNotLeader
	}
	return nil
}

// Join admits a member as a non-voter; a follower passes it to the leader.
func (e *rpcEndpoint) Join(args *JoinArgs, reply *JoinReply) error {
	ctx, cancel := context.WithTimeout(context.Background(), e.n.cfg.ForwardHold+e.n.cfg.ApplyTimeout)
	defer cancel()
	var err error
	reply.Outcome, err = e.n.Join(ctx, args.ID, args.ClusterAddr)
	reply.ErrKind, reply.Err = errorKind(err)
	return nil
}

// Status reports this member's status.
func (e *rpcEndpoint) Status(_ *StatusArgs, reply *Status) error {
	*reply = e.n.Status()
	return nil
}

func errorKind(err error) (string, string) {
	switch {
	case err == nil:
		return rpcErrNone, ""
	case errors.Is(err, ErrNotLeader), errors.Is(err, ErrShutdown):
		// A leader shutting down is, to the caller, no longer the leader:
		// it retries with the next one.
		return rpcErrNotLeader, err.Error()
	case errors.Is(err, ErrLeaderNotReady):
		return rpcErrNotReady, err.Error()
	default:
		return rpcErrOther, err.Error()
	}
}

// kindError turns a reply's error kind back into an error.
func kindError(kind, msg string) error {
	switch kind {
	case rpcErrNone:
		return nil
	case rpcErrNotLeader:
		return ErrNotLeader
	case rpcErrNotReady:
		return ErrLeaderNotReady
	default:
		return errors.New(msg)
	}
}

// serveRPC serves the internal RPCs on connections from the mux.
func (n *Node) serveRPC(ln net.Listener) {
	srv := rpc.NewServer()
	if err := srv.RegisterName("Cluster", &rpcEndpoint{n: n}); err != nil {
		panic(err) // the endpoint's method set is fixed at compile time
	}
	var mu sync.Mutex
	conns := map[net.Conn]struct{}{}
	defer func() {
		// Accepted connections outlive the listener: close them so a
		// shut-down member stops answering.
		mu.Lock()
		for c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		mu.Lock()
		conns[conn] = struct{}{}
		mu.Unlock()
		go func() {
			srv.ServeConn(conn)
			mu.Lock()
			delete(conns, conn)
			mu.Unlock()
		}()
	}
}

// RemoveArgs asks the leader to remove a member.
type RemoveArgs struct {
	ID    string
	Force bool
}

// JoinAsLeader admits a member; it is what a follower's Join forwards, and
// never forwards again.
func (e *rpcEndpoint) JoinAsLeader(args *JoinArgs, reply *JoinReply) error {
	var err error
	reply.Outcome, err = e.n.joinAsLeader(args.ID, args.ClusterAddr)
	reply.ErrKind, reply.Err = errorKind(err)
	return nil
}

// Remove removes a member on the leader's behalf of a leader that stepped
// down to be removed.
func (e *rpcEndpoint) Remove(args *RemoveArgs, reply *JoinReply) error {
	ctx, cancel := context.WithTimeout(context.Background(), e.n.cfg.ForwardHold+membershipTimeout)
	defer cancel()
	reply.ErrKind, reply.Err = errorKind(e.n.RemovePeer(ctx, args.ID, args.Force))
	return nil
}
