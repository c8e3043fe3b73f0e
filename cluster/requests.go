package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"sync"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// requestTracker assigns the state.RequestID of every client and broker write
// this member takes (docs/contributors/design.md, "Retried writes"): one session per
// process, sequence numbers in the order requests arrive, and as floor the
// oldest request still waiting for its answer.
type requestTracker struct {
	session string
	mu      sync.Mutex
	last    uint64
	waiting map[uint64]struct{}
	// floor is the oldest waiting sequence number, or last+1 when none
	// waits. It only moves forward, so keeping it costs O(1) amortized
	// per request instead of a scan of every waiting one.
	floor uint64
}

func newRequestTracker(memberID string) *requestTracker {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return short)
	session := memberID + "/" + hex.EncodeToString(b[:])
	if len(session) > fsm.MaxSessionLen {
		session = session[len(session)-fsm.MaxSessionLen:]
	}
	return &requestTracker{session: session, waiting: map[uint64]struct{}{}, floor: 1}
}

// begin assigns the next request id; done must be called once its answer
// is final (given to the client or given up).
func (r *requestTracker) begin() state.RequestID {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last++
	r.waiting[r.last] = struct{}{}
	return state.RequestID{Session: r.session, Seq: r.last, Floor: r.floor}
}

func (r *requestTracker) done(id state.RequestID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.waiting[id.Seq]; !ok {
		return
	}
	delete(r.waiting, id.Seq)
	for r.floor <= r.last {
		if _, ok := r.waiting[r.floor]; ok {
			break
		}
		r.floor++
	}
}

// identify wraps an encoded entry with a fresh request id.
func (r *requestTracker) identify(buf []byte) (state.RequestID, []byte, error) {
	id := r.begin()
	buf, err := fsm.WithRequestID(id, buf)
	if err != nil {
		r.done(id)
		return state.RequestID{}, nil, err
	}
	return id, buf, nil
}
