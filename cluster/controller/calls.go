package controller

import (
	"context"
	"errors"
	"fmt"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm/state"
)

// A request kind decided on the leader is declared once, in its own file,
// next to its decision:
//
//	var fooCall = onLeader("Foo", (*Controller).foo)
//
// New registers every declared kind on its node as the cluster.LeaderCall
// "controller.Foo", under the same name on every member, and the kind's
// exported method runs it with fooCall.call(ctx, c, req).

// request is a controller request kind decided on the leader: its name
// among the leader calls, its decision, and its slot in a Controller's
// calls.
type request[Req, A any] struct {
	name   string
	decide func(*Controller, context.Context, Req) (A, error)
	slot   int
}

// declaration is a declared request kind as New registers it.
type declaration struct {
	name     string
	register func(*Controller) any
}

// declared are the request kinds, by slot. onLeader fills it while the
// package initialises; it is read only afterwards.
var declared []declaration

// onLeader declares the request kind name, decided on the leader by
// decide. A name declared twice panics when the package loads: the second
// would replace the first on the leader.
func onLeader[Req, A any](name string, decide func(*Controller, context.Context, Req) (A, error)) *request[Req, A] {
	for _, d := range declared {
		if d.name == name {
			panic(fmt.Sprintf("controller: request %q declared twice", name))
		}
	}
	r := &request[Req, A]{name: name, decide: decide, slot: len(declared)}
	declared = append(declared, declaration{name: name, register: func(c *Controller) any { return r.register(c) }})
	return r
}

// registerCalls registers every declared request kind on c's node and
// returns the calls by slot.
func (c *Controller) registerCalls() []any {
	calls := make([]any, len(declared))
	for i, d := range declared {
		calls[i] = d.register(c)
	}
	return calls
}

// errNotServing: the leader has the controller switched off.
var errNotServing = errors.New("raftns: the controller is not enabled on the leader")

// outcome is a call's answer on its way from the leader: the answer, or
// the refusal, which travels as a value so that the caller gets the
// *state.Refused back.
type outcome[A any] struct {
	Answer  A
	Refused *state.Refused
}

// register registers the request kind on c's node.
func (r *request[Req, A]) register(c *Controller) *cluster.LeaderCall[Req, outcome[A]] {
	return cluster.NewLeaderCall(c.node, "controller."+r.name, func(ctx context.Context, req Req) (outcome[A], error) {
		if !c.serving {
			return outcome[A]{}, errNotServing
		}
		a, err := r.decide(c, ctx, req)
		var refused *state.Refused
		if errors.As(err, &refused) {
			return outcome[A]{Refused: refused}, nil
		}
		return outcome[A]{Answer: a}, err
	})
}

// call has the leader decide req and returns its answer; a refusal is an
// *state.Refused error.
func (r *request[Req, A]) call(ctx context.Context, c *Controller, req Req) (A, error) {
	out, err := c.calls[r.slot].(*cluster.LeaderCall[Req, outcome[A]]).Call(ctx, req)
	if err == nil && out.Refused != nil {
		err = out.Refused
	}
	return out.Answer, err
}
