package transport

import (
	"net"
	"sync"
)

// ServeConns runs serve on a goroutine for every connection ln accepts
// until ln fails, then closes the connections still open: accepted
// connections outlive the listener, and a shut-down member must stop
// answering.
func ServeConns(ln net.Listener, serve func(net.Conn)) {
	var mu sync.Mutex
	conns := map[net.Conn]struct{}{}
	defer func() {
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
			serve(conn)
			mu.Lock()
			delete(conns, conn)
			mu.Unlock()
		}()
	}
}
