package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"sync"

	"github.com/raftns/raftns/fsm"
)

// requestTracker assigns the fsm.RequestID of every client and broker write
// this member takes (docs/design.md, "Retried writes"): one session per
// process, sequence numbers in the order requests arrive, and as floor the
// oldest request still waiting for its answer.
type requestTracker struct {
	session string
	mu      sync.Mutex
	last    uint64
	waiting map[uint64]struct{}
}

func newRequestTracker(memberID string) *requestTracker {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return short)
	session := memberID + "/" + hex.EncodeToString(b[:])
	if len(session) > fsm.MaxSessionLen {
		session = session[len(session)-fsm.MaxSessionLen:]
	}
	return &requestTracker{session: session, waiting: map[uint64]struct{}{}}
}

// begin assigns the next request id; done must be called once its answer
// is final (given to the client or given up).
func (r *requestTracker) begin() fsm.RequestID {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last++
	floor := r.last
	for seq := range r.waiting {
		floor = min(floor, seq)
	}
	r.waiting[r.last] = struct{}{}
	return fsm.RequestID{Session: r.session, Seq: r.last, Floor: floor}
}

func (r *requestTracker) done(id fsm.RequestID) {
	r.mu.Lock()
	delete(r.waiting, id.Seq)
	r.mu.Unlock()
}

// identify encodes cmd as an entry carrying a fresh request id.
func (r *requestTracker) identify(t fsm.CommandType, cmd any) (fsm.RequestID, []byte, error) {
	buf, err := fsm.Encode(t, cmd)
	if err != nil {
		return fsm.RequestID{}, nil, err
	}
	id := r.begin()
	buf, err = fsm.WithRequestID(id, buf)
	if err != nil {
		r.done(id)
		return fsm.RequestID{}, nil, err
	}
	return id, buf, nil
}
