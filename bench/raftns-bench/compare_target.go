package main

import (
	"context"
	"fmt"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
	"golang.org/x/sync/errgroup"
)

// compareTarget is one write endpoint with its brokers and connections,
// kept across rounds.
type compareTarget struct {
	name    string
	addr    string
	regs    []*nsclient.Registration
	clients clientPool
	bumps   bool
	// live is set for a RaftNS target, whose members track the brokers'
	// connections.
	live bool
	// heartbeats are the encoded requests of regs, for a target that
	// does not bump.
	heartbeats []*remoting.Command
}

// register prepares the target's brokers, as many as its clients, each
// carrying topics topics of its own, and registers them.
func (t *compareTarget) register(ctx context.Context, n naming, group string, topics int) error {
	for i := range t.clients {
		reg := n.broker(group, i, topicConfigs(n.topics(fmt.Sprintf("%s-%d", group, i), topics), 8))
		req, err := t.clients[i].RegisterRequest(reg)
		if err != nil {
			return err
		}
		t.regs = append(t.regs, reg)
		t.heartbeats = append(t.heartbeats, req)
	}
	return registerAll(ctx, t.clients, t.addr, t.regs)
}

// send is one request of worker w: a changed registration, or for a
// target that does not bump the unchanged one, sent pre-encoded as route
// queries are.
func (t *compareTarget) send(ctx context.Context, w int) error {
	if !t.bumps {
		_, err := t.clients[w].Invoke(ctx, t.addr, t.heartbeats[w])
		return err
	}
	bump(t.regs[w])
	_, err := t.clients[w].RegisterBroker(ctx, t.addr, t.regs[w])
	return err
}

// keepAlive sends every broker of t its current registration, unchanged,
// on the client that sends it in the figures. Without it a figure's
// clients are silent while the other figures run, for longer than a
// member's idle timeout when the order reverses: the member closes the
// connection, the leader expires the brokers, and their next registration
// is a write no figure asked for. Real brokers send one every 30 s.
func (t *compareTarget) keepAlive(ctx context.Context) error {
	var g errgroup.Group
	for i, reg := range t.regs {
		g.Go(func() error {
			if _, err := t.clients[i].RegisterBroker(ctx, t.addr, reg); err != nil {
				return fmt.Errorf("%s: keep %s alive: %w", t.name, reg.BrokerName, err)
			}
			return nil
		})
	}
	return g.Wait()
}
