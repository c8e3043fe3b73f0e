package httpapi

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// connGuard holds the admin port to MaxConns open connections without
// letting anonymous load starve the probes and the operator. A connection
// that arrives at the limit takes the place of one that serves nobody who
// counts: the longest-idle keep-alive connection, else the oldest one whose
// request has not been read yet (a slow or silent client), else the oldest
// one serving an anonymous request (a watch stream, a slow reader). Only
// connections serving a probe (/livez, /readyz) or a token-bearing request
// are never taken; when every slot holds one, the newcomer waits for a
// slot in the accept backlog.
type connGuard struct {
	max int

	mu    sync.Mutex
	freed *sync.Cond
	conns map[*guardedConn]struct{}

	reclaimed atomic.Uint64
}

// connClass orders what a connection is doing by how readily it gives
// up its slot.
type connClass int

const (
	classIdle       connClass = iota // keep-alive, between requests
	classReading                     // accepted, request not read yet
	classAnonymous                   // serving an anonymous request
	classPrivileged                  // serving a probe or a token-bearing request
)

func newConnGuard(max int) *connGuard {
	g := &connGuard{max: max, conns: map[*guardedConn]struct{}{}}
	g.freed = sync.NewCond(&g.mu)
	return g
}

// guardedConn is one connection the guard counts.
type guardedConn struct {
	net.Conn
	g *connGuard
	// class and since are guarded by g.mu.
	class  connClass
	since  time.Time
	closed bool
}

// Close closes the connection and frees its slot.
func (c *guardedConn) Close() error {
	c.g.release(c)
	return c.Conn.Close()
}

// guardListener is a listener whose connections the guard counts.
type guardListener struct {
	net.Listener
	g *connGuard
}

func (l *guardListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return l.g.admit(c), nil
}

// admit counts c, taking a slot from a reclaimable connection when all
// are held, or waiting for one when none is reclaimable.
func (g *connGuard) admit(c net.Conn) *guardedConn {
	gc := &guardedConn{Conn: c, g: g, class: classReading, since: time.Now()}
	g.mu.Lock()
	for len(g.conns) >= g.max {
		victim := g.victimLocked()
		if victim == nil {
			g.freed.Wait()
			continue
		}
		g.dropLocked(victim)
		g.reclaimed.Add(1)
		// Closing unblocks the victim's reads and writes; its server
		// goroutine then finishes and closes it again (a no-op here).
		victim.Conn.Close()
	}
	g.conns[gc] = struct{}{}
	g.mu.Unlock()
	return gc
}

// victimLocked is the connection to give up its slot, or nil.
func (g *connGuard) victimLocked() *guardedConn {
	var best *guardedConn
	for c := range g.conns {
		if c.class == classPrivileged {
			continue
		}
		if best == nil || c.class < best.class || c.class == best.class && c.since.Before(best.since) {
			best = c
		}
	}
	return best
}

func (g *connGuard) dropLocked(c *guardedConn) {
	if c.closed {
		return
	}
	c.closed = true
	delete(g.conns, c)
	g.freed.Broadcast()
}

func (g *connGuard) release(c *guardedConn) {
	g.mu.Lock()
	g.dropLocked(c)
	g.mu.Unlock()
}

// set records what c is doing now; a change may make it reclaimable, so
// an arrival waiting for a slot looks again.
func (g *connGuard) set(c *guardedConn, class connClass) {
	g.mu.Lock()
	if c.class != class {
		c.class, c.since = class, time.Now()
	}
	g.freed.Broadcast()
	g.mu.Unlock()
}

// connState is the server's ConnState hook: between requests a connection
// is idle; once a request starts it is reading until its handler says
// whom it serves.
func (g *connGuard) connState(nc net.Conn, st http.ConnState) {
	c := guardedOf(nc)
	if c == nil {
		return
	}
	switch st {
	case http.StateIdle:
		g.set(c, classIdle)
	case http.StateActive:
		g.set(c, classReading)
	case http.StateHijacked, http.StateClosed:
		g.release(c)
	}
}

// open is how many connections the guard counts now.
func (g *connGuard) open() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.conns)
}

// guardedOf finds the guarded connection under nc (through TLS).
func guardedOf(nc net.Conn) *guardedConn {
	for nc != nil {
		switch c := nc.(type) {
		case *guardedConn:
			return c
		case interface{ NetConn() net.Conn }:
			nc = c.NetConn()
		default:
			return nil
		}
	}
	return nil
}

type connKey struct{}

// connContext is the server's ConnContext hook: it lets a handler find
// its connection.
func connContext(ctx context.Context, nc net.Conn) context.Context {
	if c := guardedOf(nc); c != nil {
		return context.WithValue(ctx, connKey{}, c)
	}
	return ctx
}

// connOf returns the guarded connection serving ctx's request, or nil.
func connOf(ctx context.Context) *guardedConn {
	c, _ := ctx.Value(connKey{}).(*guardedConn)
	return c
}

// classify marks the request's connection as serving a privileged or an
// anonymous request, until the request ends.
func (g *connGuard) classify(r *http.Request, privileged bool) {
	c := connOf(r.Context())
	if c == nil {
		return
	}
	class := classAnonymous
	if privileged {
		class = classPrivileged
	}
	g.set(c, class)
}
