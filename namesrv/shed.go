package namesrv

import (
	"time"

	"github.com/raftns/raftns/internal/poll"
)

// shedTick is how often an unready member looks for idle client
// connections to close.
const shedTick = 500 * time.Millisecond

// shedWhileUnready closes idle client connections while the member is not
// ready, so RocketMQ clients, which stick to one name server until its
// connection breaks, move to another member (docs/contributors/design.md, "Readiness"). Broker
// connections stay: their registrations are still forwarded.
func (s *Server) shedWhileUnready() {
	poll.Every(shedTick, s.stop, func() {
		if ready, _ := s.cluster.Ready(); ready {
			return
		}
		for _, c := range s.rs.Conns() {
			if c.InFlight() == 0 && !s.brokers.isBrokerConn(c) {
				c.Close()
			}
		}
	})
}
