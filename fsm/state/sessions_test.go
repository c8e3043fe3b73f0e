package state

import (
	"fmt"
	"maps"
	"math/rand"
	"reflect"
	"testing"
)

// recordRequestByCopy is what RecordRequest did before it updated a
// session's table in place: every request copied the table. It is the
// model the in-place version is held to.
func recordRequestByCopy(sessions map[string]session, id RequestID, result []byte, index uint64) {
	old := sessions[id.Session]
	ses := session{Floor: max(old.Floor, id.Floor), LastIndex: index, Done: make(map[uint64][]byte, len(old.Done)+1)}
	for seq, r := range old.Done {
		if seq >= ses.Floor {
			ses.Done[seq] = r
		}
	}
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
	sessions[id.Session] = ses
}

func cloneSessions(m map[string]session) map[string]session {
	out := make(map[string]session, len(m))
	for name, ses := range m {
		ses.Done = maps.Clone(ses.Done)
		out[name] = ses
	}
	return out
}

// Recording new requests in place leaves the same session table as copying it
// on every request, whatever the order of sequence numbers and floors, and
// never changes a frozen state's table that a snapshot may be streaming.
func TestSessions_InPlaceRecordingMatchesCopying(t *testing.T) {
	r := rand.New(rand.NewSource(24))
	s := New()
	model := map[string]session{}
	type frozenCopy struct {
		st   *State
		want map[string]session
	}
	var frozen []frozenCopy
	next := map[string]uint64{}
	full := 0
	for i := range 8000 {
		name := fmt.Sprintf("m%d", r.Intn(3))
		// Sequence numbers mostly rise, with requests answered out of
		// order and floors that lag behind, jump, or stay.
		next[name] += uint64(1 + r.Intn(3))
		seq := next[name] - uint64(r.Intn(4))
		if seq == 0 {
			seq = 1
		}
		lag := uint64([]int{0, 1, 5, 60, 300, 100000}[r.Intn(6)])
		if i/2000%2 == 1 {
			lag = 100000 // a phase of stuck floors, so the tables reach their bound
		}
		floor := seq - min(seq-1, lag)
		id := RequestID{Session: name, Seq: seq, Floor: floor}
		// As Apply does, only a new request is recorded.
		if verdict, _ := s.CheckRequest(id); verdict != RequestNew {
			continue
		}
		res := []byte{byte(i)}
		s.RecordRequest(id, res, uint64(i+1))
		recordRequestByCopy(model, id, res, uint64(i+1))
		if r.Intn(500) == 0 {
			s.frozen = true
			frozen = append(frozen, frozenCopy{s, cloneSessions(s.sessions())})
			s = s.thaw()
		}
		if len(model[name].Done) == maxRequestsPerSession {
			full++
		}
		if !reflect.DeepEqual(s.sessions()[name], model[name]) || (i%100 == 0 && !reflect.DeepEqual(s.sessions(), model)) {
			t.Fatalf("request %d (%+v): in place %+v\ncopying %+v", i, id, s.sessions()[name], model[name])
		}
	}
	if len(frozen) == 0 || full == 0 {
		t.Fatalf("%d states frozen, %d requests at the bound: the test did not reach both", len(frozen), full)
	}
	for i, f := range frozen {
		if !reflect.DeepEqual(f.st.sessions(), f.want) {
			t.Fatalf("frozen state %d changed after it was frozen", i)
		}
	}
}

// The table keeps at most maxSessions sessions, evicting the least
// recently used, and at most maxRequestsPerSession requests of a session,
// refusing a forgotten one as superseded (never applied twice).
func TestSessions_StayWithinTheirBounds(t *testing.T) {
	s := New()
	idx := uint64(0)
	put := func(id RequestID) RequestVerdict {
		idx++
		verdict, _ := s.CheckRequest(id)
		if verdict == RequestNew {
			s.RecordRequest(id, nil, idx)
		}
		return verdict
	}
	for i := range maxSessions + 10 {
		put(RequestID{Session: fmt.Sprintf("s%04d", i), Seq: 1, Floor: 1})
	}
	if n := s.Sessions(); n != maxSessions {
		t.Fatalf("%d sessions, want the bound %d", n, maxSessions)
	}
	// The oldest sessions went first.
	if _, kept := s.sessions()["s0000"]; kept {
		t.Fatal("the least recently used session was kept")
	}
	for seq := uint64(1); seq <= maxRequestsPerSession+50; seq++ {
		put(RequestID{Session: "busy", Seq: seq, Floor: 1}) // all in flight at once
	}
	ses := s.sessions()["busy"]
	if len(ses.Done) != maxRequestsPerSession || ses.Floor != 51 {
		t.Fatalf("busy session keeps %d requests, floor %d; want %d and 51", len(ses.Done), ses.Floor, maxRequestsPerSession)
	}
	if v := put(RequestID{Session: "busy", Seq: 3, Floor: 1}); v != RequestSuperseded {
		t.Fatalf("a forgotten request is %v, want RequestSuperseded (never applied twice)", v)
	}
}
