package transport

import (
	"context"
	"errors"
	"fmt"
	"net/rpc"
	"sync"
)

// RPCPool keeps multiplexed net/rpc clients per member address, one per
// lane, so that a timed-out heartbeat batch or status probe, which drops its
// connection, never cuts off a large forwarded write in flight.
type RPCPool struct {
	dialer Dialer
	// linkDown cuts links in tests; nil in production.
	linkDown func(addr string) bool
	// closedErr is what a call fails with once the pool is closed.
	closedErr error
	mu        sync.Mutex
	clients   map[string]*rpc.Client
	closed    bool
}

// NewRPCPool returns a pool that dials through d. linkDown, when set, says
// which addresses a test has cut off; closed is the error a call wraps
// once the pool is closed.
func NewRPCPool(d Dialer, linkDown func(addr string) bool, closed error) *RPCPool {
	return &RPCPool{dialer: d, linkDown: linkDown, closedErr: closed, clients: map[string]*rpc.Client{}}
}

// Dialer is the dialer the pool connects with.
func (p *RPCPool) Dialer() Dialer { return p.dialer }

// connFor names the connection a method uses.
func connFor(method string) string {
	switch method {
	case "Heartbeats", "Status":
		return method
	}
	return "write"
}

func (p *RPCPool) get(key, addr string, fresh bool) (*rpc.Client, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, p.closedErr
	}
	if c, ok := p.clients[key]; ok {
		if !fresh {
			return c, nil
		}
		c.Close()
		delete(p.clients, key)
	}
	conn, err := p.dialer.Dial(addr, ProtoRPC, DialTimeout)
	if err != nil {
		return nil, err
	}
	c := rpc.NewClient(conn)
	p.clients[key] = c
	return c, nil
}

func (p *RPCPool) drop(key string, c *rpc.Client) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.clients[key] == c {
		delete(p.clients, key)
	}
	c.Close()
}

// Call invokes method of the "Cluster" service on the member at addr within
// ctx. fresh forces a new connection (rqlite's last-retry rule).
func (p *RPCPool) Call(ctx context.Context, addr, method string, args, reply any, fresh bool) error {
	if p.linkDown != nil && p.linkDown(addr) {
		return fmt.Errorf("%w: %s on %s: link cut", ErrNotSent, method, addr)
	}
	key := addr + "#" + connFor(method)
	c, err := p.get(key, addr, fresh)
	if err != nil {
		return fmt.Errorf("%w: dial %s: %w", ErrNotSent, addr, err)
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

// ErrNotSent marks a call that failed before its request left this member.
var ErrNotSent = errors.New("not sent")

// Close closes every client; later calls fail.
func (p *RPCPool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for addr, c := range p.clients {
		c.Close()
		delete(p.clients, addr)
	}
}
