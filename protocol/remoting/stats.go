package remoting

import "sync/atomic"

// ServerStats is a snapshot of a Server's counters, for a metrics layer to
// export. All but OpenConns only grow.
type ServerStats struct {
	Accepted         uint64 // connections admitted
	RejectedByLimit  uint64 // connections closed at once because of MaxConns
	BadFrames        uint64 // connections closed because a frame did not decode
	IdleClosed       uint64 // connections closed by IdleTimeout
	Requests         uint64 // request frames read, oneway included
	Oneway           uint64 // oneway request frames read
	IgnoredResponses uint64 // frames with the response bit, which a server drops
	HandlerPanics    uint64 // handler panics recovered
	SlowFrames       uint64 // connections closed because a frame took longer than FrameTimeout
	Busy             uint64 // frames answered SYSTEM_BUSY because the memory budget was spent
	Inline           uint64 // requests answered on the read goroutine by an InlineHandler
	OpenConns        int    // connections open now
}

// serverCounters are the live counters behind ServerStats.
type serverCounters struct {
	accepted, rejectedByLimit, badFrames, idleClosed  atomic.Uint64
	requests, oneway, ignoredResponses, handlerPanics atomic.Uint64
	slowFrames, busy, inline                          atomic.Uint64
}

// Stats returns a snapshot of the server's counters.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	open := len(s.conns)
	s.mu.Unlock()
	return ServerStats{
		Accepted:         s.stats.accepted.Load(),
		RejectedByLimit:  s.stats.rejectedByLimit.Load(),
		BadFrames:        s.stats.badFrames.Load(),
		IdleClosed:       s.stats.idleClosed.Load(),
		Requests:         s.stats.requests.Load(),
		Oneway:           s.stats.oneway.Load(),
		IgnoredResponses: s.stats.ignoredResponses.Load(),
		HandlerPanics:    s.stats.handlerPanics.Load(),
		SlowFrames:       s.stats.slowFrames.Load(),
		Busy:             s.stats.busy.Load(),
		Inline:           s.stats.inline.Load(),
		OpenConns:        open,
	}
}
