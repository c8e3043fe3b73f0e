package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// leaderCallMethod is the RPC that carries a registered call to the leader.
const leaderCallMethod = "LeaderCall"

// LeaderCallArgs carries a registered call from a member to the leader: the
// name it was registered under, its JSON-encoded request and its caller.
type LeaderCallArgs struct {
	Name    string
	Request []byte
	// Caller is who made the request, from where and through which
	// member, for the audit stamps of what the leader proposes for it;
	// nil when the member that took it names none. gob leaves out a
	// field the other side lacks, so a leader of an older release ignores
	// it, and a caller from a member of an older release arrives nil: the
	// leader then stamps its proposals as its own decisions.
	Caller *Caller
}

// LeaderCall is an operation that another package runs on the leader,
// registered on every member under one name with its request and answer
// types (NewLeaderCall). It reaches the leader the way every write does
// (docs/contributors/design.md, "Reaching the leader"): it runs here when this member
// is the leader in office, otherwise it is sent once to the leader over
// the cluster port, with the same retry policy. Request and answer travel
// JSON-encoded in a LeaderReply; an error the operation returns reaches a
// remote caller as its text alone, so an outcome the caller must tell
// apart belongs in the answer.
type LeaderCall[Req, Resp any] struct {
	n    *Node
	name string
	run  func(context.Context, Req) (Resp, error)
}

// NewLeaderCall registers run on n under name and returns the call. Every
// member registers the same calls; registering a name again replaces its
// operation.
func NewLeaderCall[Req, Resp any](n *Node, name string, run func(context.Context, Req) (Resp, error)) *LeaderCall[Req, Resp] {
	c := &LeaderCall[Req, Resp]{n: n, name: name, run: run}
	n.calls.register(name, c.serve)
	return c
}

// Call runs the operation on the leader and returns its answer.
func (c *LeaderCall[Req, Resp]) Call(ctx context.Context, req Req) (Resp, error) {
	res, err := c.n.onLeader(ctx, leaderOp{
		method: leaderCallMethod,
		args: func() (any, error) {
			b, err := json.Marshal(req)
			if err != nil {
				return nil, fmt.Errorf("%s request: %w", c.name, err)
			}
			return &LeaderCallArgs{Name: c.name, Request: b, Caller: c.n.passedOn(ctx)}, nil
		},
		local: func(ctx context.Context) (any, error) { return c.asLeader(ctx, req) },
		decode: func(b []byte) (any, error) {
			var resp Resp
			if err := json.Unmarshal(b, &resp); err != nil {
				return nil, fmt.Errorf("%s answer: %w", c.name, err)
			}
			return resp, nil
		},
		visible: true,
	})
	resp, _ := res.(Resp)
	return resp, err
}

// asLeader runs the operation on this member as the leader in office.
func (c *LeaderCall[Req, Resp]) asLeader(ctx context.Context, req Req) (Resp, error) {
	if err := c.n.tenure.readyFor(ctx); err != nil {
		var none Resp
		return none, err
	}
	return c.run(ctx, req)
}

// serve runs the operation for another member.
func (c *LeaderCall[Req, Resp]) serve(ctx context.Context, request []byte) ([]byte, error) {
	var req Req
	if err := json.Unmarshal(request, &req); err != nil {
		return nil, fmt.Errorf("%s request: %w", c.name, err)
	}
	resp, err := c.asLeader(ctx, req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(resp)
}

// errCallNotServed: the leader has no operation registered under the name
// a member asked for.
var errCallNotServed = errors.New("raftns: the leader serves no such call")

// leaderCalls holds the operations other members may run on this member as
// the leader, by name.
type leaderCalls struct {
	mu     sync.RWMutex
	served map[string]func(context.Context, []byte) ([]byte, error)
}

func (l *leaderCalls) register(name string, serve func(context.Context, []byte) ([]byte, error)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.served == nil {
		l.served = map[string]func(context.Context, []byte) ([]byte, error){}
	}
	l.served[name] = serve
}

func (l *leaderCalls) serve(ctx context.Context, name string, request []byte) ([]byte, error) {
	l.mu.RLock()
	serve := l.served[name]
	l.mu.RUnlock()
	if serve == nil {
		return nil, fmt.Errorf("%w: %q", errCallNotServed, name)
	}
	return serve(ctx, request)
}

// LeaderCall runs a registered call for another member if this member
// leads, on behalf of the caller the member passed on.
func (e *rpcEndpoint) LeaderCall(args *LeaderCallArgs, reply *LeaderReply) error {
	return e.runChange(reply, e.n.cfg.ApplyTimeout, func(ctx context.Context) ([]byte, error) {
		if c := args.Caller; c != nil {
			if err := c.check(); err != nil {
				return nil, err
			}
			ctx = WithCaller(ctx, *c)
		}
		return e.n.calls.serve(ctx, args.Name, args.Request)
	})
}
