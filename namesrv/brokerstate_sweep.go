package namesrv

import (
	"time"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/internal/poll"
)

// What is kept per broker outside the replicated state (the registration
// cache, split rounds) is swept every brokerStateSweep: a broker the state
// no longer holds (expired, or unregistered through another member) leaves
// nothing behind, and a split round with no part for roundMaxAge gives up
// its gathered topics. A broker sends a round's parts back to back and
// registers every 30 s by default, so a round that old will not end.
const (
	brokerStateSweep = 10 * time.Second
	roundMaxAge      = 2 * time.Minute
)

// sweepBrokerState sweeps until the server stops.
func (s *Server) sweepBrokerState() {
	poll.Every(brokerStateSweep, s.stop, s.sweepOnce)
}

// sweepOnce drops what is kept of brokers the state does not hold, and the
// topics of stale rounds.
func (s *Server) sweepOnce() {
	live := func(key state.BrokerKey) bool {
		_, ok := s.fsm.Registration(key)
		return ok
	}
	s.regCache.sweep(live)
	s.rounds.sweep(live, roundMaxAge)
}
