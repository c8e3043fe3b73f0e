package fsm

import (
	"errors"
	"fmt"

	"github.com/hashicorp/raft"
)

// Apply applies one committed log entry and returns the response the
// proposer receives: RegisterResult for RegisterBroker, WritePermResult for
// Wipe/AddWritePerm, nil otherwise. An entry that does not decode, or whose
// type is unknown without IgnoreUnknownTypeFlag, panics: a replica that
// skipped it would diverge.
func (f *FSM) Apply(l *raft.Log) interface{} {
	return f.ApplyBatch([]*raft.Log{l})[0]
}

// ApplyBatch applies committed entries in order under one lock. Entries that
// are not commands (configuration, no-op, barrier) yield nil but still
// advance AppliedIndex.
func (f *FSM) ApplyBatch(logs []*raft.Log) []interface{} {
	out := make([]interface{}, len(logs))
	f.mu.Lock()
	defer f.mu.Unlock()
	changed := false
	for i, l := range logs {
		if l.Type == raft.LogCommand {
			var ch bool
			out[i], ch = f.applyCommandLocked(l)
			changed = changed || ch
		}
		f.applied.Store(l.Index)
	}
	if changed {
		f.gen.Add(1)
	}
	return out
}

// applyCommandLocked decodes and applies one command entry.
func (f *FSM) applyCommandLocked(l *raft.Log) (any, bool) {
	t, cmd, err := Decode(l.Data)
	if err != nil {
		if errors.Is(err, ErrUnknownCommandType) && t&IgnoreUnknownTypeFlag != 0 {
			f.logger.Warn("skipping unknown command type", "type", uint8(t), "index", l.Index)
			return nil, false
		}
		panic(fmt.Sprintf("fsm: cannot apply log entry %d (type %d): %v", l.Index, uint8(t), err))
	}
	s := f.writableLocked()
	res, changed := f.dispatch(s, cmd, l.Index)
	if changed {
		s.lastChange = l.Index
	}
	return res, changed
}

// dispatch calls the handler of a decoded command; it reports whether the
// state changed.
func (f *FSM) dispatch(s *state, cmd any, index uint64) (any, bool) {
	switch c := cmd.(type) {
	case *RegisterBroker:
		return f.applyRegisterBroker(s, c, index)
	case *UnregisterBroker:
		return nil, f.applyUnregisterBroker(s, c)
	case *ExpireBrokers:
		return nil, f.applyExpireBrokers(s, c, index)
	case *WipeWritePerm:
		return s.applyWritePerm(c.BrokerName, false)
	case *AddWritePerm:
		return s.applyWritePerm(c.BrokerName, true)
	case *DeleteTopic:
		return nil, s.applyDeleteTopic(c)
	case *RegisterTopic:
		return nil, f.applyRegisterTopic(s, c)
	case *PutKV:
		return nil, s.applyPutKV(c)
	case *DeleteKV:
		return nil, s.applyDeleteKV(c)
	case *SetMember:
		return nil, s.applySetMember(c)
	case *RemoveMember:
		return nil, s.applyRemoveMember(c)
	}
	// Decode only returns the types above; anything else is a bug here.
	panic(fmt.Sprintf("fsm: no handler for %T at index %d", cmd, index))
}
