package remoting

import (
	"fmt"
	"time"

	"github.com/raftns/raftns/internal/membudget"
)

// ServerConfig holds the limits and lifecycle hooks of a Server.
type ServerConfig struct {
	// MaxConns caps open connections; a connection beyond it is accepted,
	// closed at once and counted in ServerStats.RejectedByLimit. 0 means no
	// limit.
	MaxConns int
	// IdleTimeout closes a connection with nothing read, nothing written and
	// no request in flight for this long, like Java's IdleStateHandler with
	// serverChannelMaxIdleTimeSeconds (120 s). 0 disables it.
	IdleTimeout time.Duration
	// MaxInflightPerConn bounds the requests of one connection handled at
	// once; when reached, the connection is not read until one finishes.
	MaxInflightPerConn int
	// WriteTimeout bounds each write of responses to a connection; a peer
	// that does not read for this long is disconnected. 0 disables it.
	WriteTimeout time.Duration
	// FrameTimeout bounds reading one frame once its first byte arrived;
	// a sender slower than that is disconnected and counted in
	// ServerStats.SlowFrames. Waiting between frames is IdleTimeout's
	// business. 0 disables it.
	FrameTimeout time.Duration
	// Budget, when set, is charged with every frame's length from before
	// its body is read until its handler returns. A frame that does not
	// fit within BudgetWait is read past without keeping its body and
	// answered SYSTEM_BUSY (counted in ServerStats.Busy).
	Budget *membudget.Budget
	// BudgetWait is how long a frame waits for the budget.
	BudgetWait time.Duration

	// OnConnect, if set, is called from the connection's goroutine after
	// the connection is accepted and before its first request is read.
	OnConnect func(*Conn)
	// OnClose, if set, is called exactly once per connection that saw
	// OnConnect, after it is closed for any reason (peer close, idle
	// timeout, bad frame, write error, Conn.Close, Server.Close) and after
	// all of its handlers have returned. Conn.Err tells why.
	OnClose func(*Conn)
}

// DefaultServerConfig returns the defaults: 10000 connections, the Java
// NameServer's 120 s idle close, 256 requests in flight per connection (the
// Java serverOnewaySemaphoreValue), a 10 s write timeout, 30 s to finish a
// frame, no budget and a 200 ms budget wait.
func DefaultServerConfig() ServerConfig {
	return ServerConfig{
		MaxConns:           10000,
		IdleTimeout:        120 * time.Second,
		MaxInflightPerConn: 256,
		WriteTimeout:       10 * time.Second,
		FrameTimeout:       30 * time.Second,
		BudgetWait:         200 * time.Millisecond,
	}
}

// Validate reports the first value out of range.
func (c ServerConfig) Validate() error {
	switch {
	case c.MaxConns < 0:
		return fmt.Errorf("%w: MaxConns %d is negative", ErrInvalidConfig, c.MaxConns)
	case c.IdleTimeout < 0:
		return fmt.Errorf("%w: IdleTimeout %s is negative", ErrInvalidConfig, c.IdleTimeout)
	case c.MaxInflightPerConn < 1:
		return fmt.Errorf("%w: MaxInflightPerConn %d is below 1", ErrInvalidConfig, c.MaxInflightPerConn)
	case c.WriteTimeout < 0:
		return fmt.Errorf("%w: WriteTimeout %s is negative", ErrInvalidConfig, c.WriteTimeout)
	case c.FrameTimeout < 0:
		return fmt.Errorf("%w: FrameTimeout %s is negative", ErrInvalidConfig, c.FrameTimeout)
	}
	return nil
}
