package namesrv

import (
	"errors"

	"github.com/raftns/raftns/internal/membudget"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// inflation bounds a compressed register body: the configured cap, and
// every inflated chunk charged to acct (the process-wide request budget).
func (s *Server) inflation(acct *membudget.Account) body.Inflation {
	return body.Inflation{
		Max:    s.cfg.MaxInflatedBody,
		Charge: func(n int) bool { return acct.Grow(int64(n)) },
	}
}

// bodyError is the answer to a body that did not decode: SYSTEM_BUSY when
// the memory budget refused it (the broker retries with its next
// registration), SYSTEM_ERROR with the decoder's message otherwise.
func bodyError(err error) error {
	if errors.Is(err, body.ErrNoMemory) {
		return refused(remoting.SystemBusy, "raftns: request memory budget exhausted while inflating the body: "+err.Error())
	}
	return badRequest(err.Error())
}
