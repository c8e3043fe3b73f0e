package main

import (
	"context"
	"fmt"

	"github.com/raftns/raftns/transport/nsclient"
	"github.com/raftns/raftns/transport/remoting"
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
