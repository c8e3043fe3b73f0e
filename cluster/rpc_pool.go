package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/rpc"
	"sync"
)

// rpcPool keeps multiplexed net/rpc clients per member address, one per
// lane, so that a timed-out heartbeat batch or status probe, which drops its
// connection, never cuts off a large forwarded write in flight.
type rpcPool struct {
	dialer dialer
	// linkDown cuts links in tests (Config.linkDown); nil in production.
	linkDown func(addr string) bool
	mu       sync.Mutex
	clients  map[string]*rpc.Client
	closed   bool
}

func newRPCPool(d dialer, linkDown func(string) bool) *rpcPool {
	return &rpcPool{dialer: d, linkDown: linkDown, clients: map[string]*rpc.Client{}}
}

// connFor names the connection a method uses.
func connFor(method string) string {
	switch method {
	case "Heartbeats", "Status":
		return method
	}
	return "write"
}

func (p *rpcPool) get(key, addr string, fresh bool) (*rpc.Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrShutdown
	}
	if c, ok := p.clients[key]; ok {
		if !fresh {
			return c, nil
		}
		c.Close()
		delete(p.clients, key)
	}
	conn, err := p.dialer.dial(addr, muxRPC, rpcDialTimeout)
	if err != nil {
		return nil, err
	}
	c := rpc.NewClient(conn)
	p.clients[key] = c
	return c, nil
}

func (p *rpcPool) drop(key string, c *rpc.Client) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.clients[key] == c {
		delete(p.clients, key)
	}
	c.Close()
}

// call invokes method on the member at addr within ctx. fresh forces a new
// connection (rqlite's last-retry rule).
func (p *rpcPool) call(ctx context.Context, addr, method string, args, reply any, fresh bool) error {
	if p.linkDown != nil && p.linkDown(addr) {
		return fmt.Errorf("%w: %s on %s: link cut", errNotSent, method, addr)
	}
	key := addr + "#" + connFor(method)
	c, err := p.get(key, addr, fresh)
	if err != nil {
		return fmt.Errorf("%w: dial %s: %w", errNotSent, addr, err)
	}
	call := c.Go("Cluster."+method, args, reply, make(chan *rpc.Call, 1))
	select {
	case <-call.Done:
		if call.Error != nil {
			var se rpc.ServerError
			if !errors.As(call.Error, &se) {
				p.drop(key, c)
			}
			return fmt.Errorf("%s on %s: %w", method, addr, call.Error)
		}
		return nil
	case <-ctx.Done():
		// The connection may carry a late reply; a fresh one is cheaper
		// than reasoning about it.
		p.drop(key, c)
		return fmt.Errorf("%s on %s: %w", method, addr, ctx.Err())
	}
}

// errNotSent marks a call that failed before its request left this member.
var errNotSent = errors.New("not sent")

func (p *rpcPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for addr, c := range p.clients {
		c.Close()
		delete(p.clients, addr)
	}
}
