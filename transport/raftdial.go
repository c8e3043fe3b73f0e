package transport

import (
	"errors"
	"net"
	"syscall"
	"time"

	"github.com/hashicorp/raft"
)

// redialInterval is how often a refused Raft connection is tried again
// within one dial.
const redialInterval = 100 * time.Millisecond

// PatientLayer is the Raft stream layer with a dial that, while the other
// member refuses connections (its process is down), keeps trying for the
// whole timeout the transport allows instead of failing at once.
//
// hashicorp/raft backs off after each failed append to a follower, doubling
// a pause of up to 10.24 s that it sleeps before the next attempt and that
// nothing cuts short. With a dial that fails at once, a follower down for
// more than about ten seconds has run that pause up to its maximum, and on
// its return it waits up to 10 s for its first entry. A dial that waits for
// the member instead makes each failed attempt last the transport timeout,
// so the failure count, and with it the pause, stays small; and the
// attempt under way connects within redialInterval of the member listening
// again.
type PatientLayer struct {
	RaftLayer
	// Stop ends a dial's retries; the node's shutdown.
	Stop <-chan struct{}
}

// Dial opens a Raft connection, retrying refused connections until timeout
// passes or Stop is closed.
func (l PatientLayer) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	deadline := time.Now().Add(timeout)
	for {
		conn, err := l.RaftLayer.Dial(addr, time.Until(deadline))
		if err == nil || !errors.Is(err, syscall.ECONNREFUSED) || time.Until(deadline) < redialInterval {
			return conn, err
		}
		t := time.NewTimer(redialInterval)
		select {
		case <-t.C:
		case <-l.Stop:
			t.Stop()
			return nil, err
		}
	}
}
