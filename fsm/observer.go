package fsm

import "github.com/raftns/raftns/fsm/state"

// BrokerChangeKind names what happened to a broker.
type BrokerChangeKind string

// The broker changes an Observer hears about.
const (
	BrokerRegistered   BrokerChangeKind = "registered"
	BrokerUnregistered BrokerChangeKind = "unregistered"
	BrokerExpired      BrokerChangeKind = "expired"
)

// BrokerChange is one registration of a new broker, unregistration or
// expiry the FSM applied, on every member alike.
type BrokerChange struct {
	Kind       BrokerChangeKind
	Cluster    string
	BrokerName string
	BrokerID   int64
	Addr       string
	// Reason is the leader's reason for an expiry ("timeout",
	// "connection-closed"); empty otherwise.
	Reason string
	// Index is the Raft index of the entry, 0 where unknown.
	Index uint64
}

// Observer hears about broker changes as they are applied. It is called
// with the FSM's lock held, so it must return quickly and must not call
// back into the FSM.
type Observer interface {
	BrokerChanged(BrokerChange)
}

// SetObserver installs o (nil removes it). Call it before Raft starts.
func (f *FSM) SetObserver(o Observer) { f.observer = o }

func (f *FSM) notify(c BrokerChange) {
	if f.observer != nil {
		f.observer.BrokerChanged(c)
	}
}

// SetAuditObserver installs fn (nil removes it), called with every audit
// record as it is appended, under the FSM's lock: it must return quickly
// and not call back into the FSM. Call it before Raft starts.
func (f *FSM) SetAuditObserver(fn func(state.AuditRecord)) { f.audited = fn }

// ChangeObserver hears about every applied entry that changed the state
// or added an audit record, and about every restore (cmd nil), under the
// FSM's lock: it must return quickly and not call back into the FSM. cmd
// is the decoded command (for example *DeleteTopic) and must not be
// changed or kept.
type ChangeObserver interface {
	Changed(index uint64, cmd any, audited bool)
}

// SetChangeObserver installs o (nil removes it), best before Raft starts:
// changes applied earlier are not told.
func (f *FSM) SetChangeObserver(o ChangeObserver) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.changeObserver = o
}
