package state

import "sort"

// Bounds of the session table, which is replicated and in snapshots. A
// session is one member process; it is evicted, least recently used first,
// when more than maxSessions exist. Within a session at most
// maxRequestsPerSession applied requests at or above its floor are
// remembered; past that the oldest are forgotten and the floor moves above
// them (a retry of one of those is then refused as superseded, never
// applied twice). Answers larger than maxCachedResult are not kept; a retry
// of such a request gets the answer computed from the current state.
const (
	maxSessions           = 1024
	maxRequestsPerSession = 256
	maxCachedResult       = 4 << 10
)

// session is what the FSM remembers of one session: its floor and the
// requests at or above it that were applied, with their encoded answers.
type session struct {
	Floor uint64
	// LastIndex is the log index of the session's last applied request,
	// the eviction order.
	LastIndex uint64
	Done      map[uint64][]byte
}

// RequestVerdict is what the session table says about a request.
type RequestVerdict int

const (
	RequestNew        RequestVerdict = iota
	RequestDuplicate                 // applied before: answer again, change nothing
	RequestSuperseded                // below the floor and not applied: refuse
)

// CheckRequest classifies a request; for a duplicate it also returns the
// cached answer (nil when none was kept).
func (s *State) CheckRequest(id RequestID) (RequestVerdict, []byte) {
	ses, ok := s.sessions()[id.Session]
	if !ok {
		return RequestNew, nil
	}
	if res, done := ses.Done[id.Seq]; done {
		return RequestDuplicate, res
	}
	if id.Seq < ses.Floor {
		return RequestSuperseded, nil
	}
	return RequestNew, nil
}

// RecordRequest remembers an applied request, one CheckRequest found new,
// and raises the session's floor to the request's. Every answer kept is at
// or above the session's floor. A session's table of answers is copied the first time
// this state version writes it (ownsSession), so a frozen state that shares
// it is never changed; after that it is updated in place.
func (s *State) RecordRequest(id RequestID, result []byte, index uint64) {
	ses, ok := s.sessions()[id.Session]
	if !ok && len(s.sessions()) >= maxSessions {
		s.evictOldestSession()
	}
	floor := max(ses.Floor, id.Floor)
	if ok && s.ownsSession(id.Session) {
		dropBelow(ses.Done, ses.Floor, floor)
	} else {
		done := make(map[uint64][]byte, len(ses.Done)+1)
		for seq, r := range ses.Done {
			if seq >= floor {
				done[seq] = r
			}
		}
		ses.Done = done
		s.ownedSessions()[id.Session] = struct{}{}
	}
	ses.Floor, ses.LastIndex = floor, index
	if len(result) > maxCachedResult {
		result = nil
	}
	ses.Done[id.Seq] = result
	if len(ses.Done) > maxRequestsPerSession {
		seqs := sortedSeqs(ses.Done)
		for _, seq := range seqs[:len(seqs)-maxRequestsPerSession] {
			delete(ses.Done, seq)
		}
		ses.Floor = max(ses.Floor, seqs[len(seqs)-maxRequestsPerSession])
	}
	s.sessions()[id.Session] = ses
}

// ownsSession reports whether this state version made the session's table
// of answers, so that it may change it in place.
func (s *State) ownsSession(name string) bool {
	_, ok := s.ownedSessions()[name]
	return ok
}

// dropBelow removes the answers below floor from done, whose answers are all
// at or above from: by sequence number when the floor moved by less than the
// table's size, otherwise by a pass over the table.
func dropBelow(done map[uint64][]byte, from, floor uint64) {
	if floor <= from {
		return
	}
	if floor-from > uint64(len(done)) {
		for seq := range done {
			if seq < floor {
				delete(done, seq)
			}
		}
		return
	}
	for seq := from; seq < floor; seq++ {
		delete(done, seq)
	}
}

// evictOldestSession removes the least recently used session (ties by
// name, so every member evicts the same one).
func (s *State) evictOldestSession() {
	var victim string
	var oldest uint64
	for name, ses := range s.sessions() {
		if victim == "" || ses.LastIndex < oldest || (ses.LastIndex == oldest && name < victim) {
			victim, oldest = name, ses.LastIndex
		}
	}
	delete(s.sessions(), victim)
}

// Sessions is the number of sessions in the table.
func (s *State) Sessions() int { return len(s.sessions()) }

func sortedSeqs(m map[uint64][]byte) []uint64 {
	out := make([]uint64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// RequestID identifies one client- or broker-originated write across every
// retry of it (docs/contributors/design.md, "Retried writes"). The member that takes the
// request from the client assigns it once; every forwarding attempt and
// every retry carries the same value, so the FSM applies the write at most
// once.
//
//   - Session names the member process that took the request: the member's
//     ID and a random part chosen when the process starts. It is at most
//     MaxSessionLen bytes.
//   - Seq numbers the session's requests from 1 upwards, in the order the
//     member took them.
//   - Floor is the lowest Seq of the session still waiting for its answer
//     when this request was sent (Seq itself when none was older). Every
//     request of the session below Floor was answered or given up; once an
//     entry with that Floor is applied, no such request can apply any more,
//     so a write a client gave up on can never land after a newer one that
//     was acknowledged.
//
// Other code that proposes writes on a client's behalf (forwarding,
// batching) passes the RequestID along unchanged and never makes one up.
type RequestID struct {
	Session string
	Seq     uint64
	Floor   uint64
}
