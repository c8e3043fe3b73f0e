package fsm

import (
	"github.com/raftns/raftns/fsm/state"
	"sync"
	"unsafe"
)

// Proposal is a command entry this member is about to propose, with what it
// decodes to. Handed to Expect, it spares the FSM decoding the entry again
// when Raft applies that very entry on this member (the leader applies the
// slice it was given).
type Proposal struct{ e decodedEntry }

// DecodeProposal decodes an entry as Decode does and keeps the whole result
// for Expect.
func DecodeProposal(buf []byte) (Proposal, error) {
	e := decodeEntry(buf)
	return Proposal{e}, e.err
}

// Type is the entry's command type, as Decode returns it.
func (p Proposal) Type() CommandType { return p.e.t }

// Command is the decoded command, as Decode returns it.
func (p Proposal) Command() any { return p.e.cmd }

// RegistrationProposal is the Proposal of the entry
// WithRequestID(id, Encode(RegisterBrokerType, cmd)), without decoding it:
// a registration the hand encoder writes decodes to exactly the command it
// was encoded from (TestProposal_RegistrationIsWhatTheEntryDecodesTo). ok
// is false for one it does not write (with mapping infos). cmd must not be
// changed afterwards.
func RegistrationProposal(id state.RequestID, cmd *state.RegisterBroker) (Proposal, bool) {
	if cmd == nil || cmd.MappingInfos != nil {
		return Proposal{}, false
	}
	return Proposal{decodedEntry{id: id, identified: true, t: RegisterBrokerType, cmd: cmd}}, true
}

// expectations are the entries this member proposed and has not seen
// applied or given up, by the address of their first byte.
type expectations struct {
	mu sync.Mutex
	m  map[*byte]expectation
}

type expectation struct {
	size int
	e    decodedEntry
}

// Expect tells the FSM that buf, which this member is about to propose,
// decodes to p. The proposer calls Forget with the same buf once the
// proposal is answered, applied or not; entries applied from elsewhere (a
// follower's log, a restart) are decoded as always.
func (f *FSM) Expect(buf []byte, p Proposal) {
	if len(buf) == 0 || p.e.err != nil || p.e.cmd == nil {
		return
	}
	f.expected.mu.Lock()
	if f.expected.m == nil {
		f.expected.m = map[*byte]expectation{}
	}
	f.expected.m[unsafe.SliceData(buf)] = expectation{size: len(buf), e: p.e}
	f.expected.mu.Unlock()
}

// Forget drops what Expect recorded for buf, if it is still there.
func (f *FSM) Forget(buf []byte) {
	if len(buf) == 0 {
		return
	}
	f.expected.mu.Lock()
	delete(f.expected.m, unsafe.SliceData(buf))
	f.expected.mu.Unlock()
}

// expectedEntry returns and drops the decoded entry expected for buf.
func (f *FSM) expectedEntry(buf []byte) (decodedEntry, bool) {
	if len(buf) == 0 {
		return decodedEntry{}, false
	}
	f.expected.mu.Lock()
	defer f.expected.mu.Unlock()
	x, ok := f.expected.m[unsafe.SliceData(buf)]
	if !ok || x.size != len(buf) {
		return decodedEntry{}, false
	}
	delete(f.expected.m, unsafe.SliceData(buf))
	return x.e, true
}
