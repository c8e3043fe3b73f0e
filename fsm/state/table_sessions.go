package state

import (
	"fmt"
	"maps"
)

// recSession is the snapshot record of one session (sessionRecord; absent
// from older snapshots).
const recSession uint8 = 13

// sessionRecord is a session in a snapshot.
type sessionRecord struct {
	Name string
	session
}

// sessionsTable remembers applied requests per session (sessions.go). A
// session's table of answers is changed in place only by the state
// version whose owned set names it: the version that made it.
type sessionsTable struct {
	m     map[string]session
	owned map[string]struct{}
}

var sessionsSlot = slotOf[*sessionsTable]()

// sessions is the session table of s.
func (s *State) sessions() map[string]session { return s.tables[sessionsSlot].(*sessionsTable).m }

// ownedSessions names the sessions whose tables of answers s made.
func (s *State) ownedSessions() map[string]struct{} {
	return s.tables[sessionsSlot].(*sessionsTable).owned
}

func newSessions() table {
	return &sessionsTable{m: map[string]session{}, owned: map[string]struct{}{}}
}

func (t *sessionsTable) thaw() table {
	return &sessionsTable{m: maps.Clone(t.m), owned: map[string]struct{}{}}
}

func (t *sessionsTable) walk(emit emitFunc) error {
	for _, name := range sortedKeys(t.m) {
		if err := emit(recSession, &sessionRecord{Name: name, session: t.m[name]}); err != nil {
			return err
		}
	}
	return nil
}

func (t *sessionsTable) restore(_ *restorer, _ uint8, payload []byte) error {
	r, err := decode[sessionRecord](payload)
	if err != nil {
		return err
	}
	if _, ok := t.m[r.Name]; ok || r.Name == "" {
		return duplicate("session", r.Name)
	}
	if len(t.m) >= maxSessions || len(r.Done) > maxRequestsPerSession {
		return fmt.Errorf("session table beyond its bounds")
	}
	if r.Done == nil {
		r.Done = map[uint64][]byte{}
	}
	t.m[r.Name] = r.session
	return nil
}
