package httpapi

import (
	"net/http/pprof"
)

// serveProfiler adds the Go profiler's endpoints (CPU, heap, mutex, block,
// goroutine profiles and execution traces) under /debug/pprof/, each behind
// the same guard as the mutating endpoints. It registers them once.
func (s *Server) serveProfiler() {
	s.profilerOnce.Do(func() {
		s.mux.HandleFunc("GET /debug/pprof/", s.authorized(pprof.Index))
		s.mux.HandleFunc("GET /debug/pprof/cmdline", s.authorized(pprof.Cmdline))
		s.mux.HandleFunc("GET /debug/pprof/profile", s.authorized(pprof.Profile))
		s.mux.HandleFunc("GET /debug/pprof/symbol", s.authorized(pprof.Symbol))
		s.mux.HandleFunc("GET /debug/pprof/trace", s.authorized(pprof.Trace))
	})
}
