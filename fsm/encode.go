package fsm

import (
	"fmt"

	"github.com/raftns/raftns/fsm/state"
)

// Encode returns the log entry for a command: the type byte t followed by the
// msgpack encoding of cmd. cmd is the command struct matching t, by value or
// pointer; t may carry IgnoreUnknownTypeFlag.
func Encode(t CommandType, cmd any) ([]byte, error) {
	spec := commands.lookup(t)
	if spec == nil {
		return nil, fmt.Errorf("%w: %d", ErrUnknownCommandType, uint8(t))
	}
	if !spec.matches(cmd) {
		return nil, fmt.Errorf("%w: %s got %T", ErrCommandMismatch, t, cmd)
	}
	entry, err := encodeEntry(t, cmd)
	if err != nil || spec.needs.IsZero() {
		return entry, err
	}
	return wrapVersioned(spec.needs, entry), nil
}

// encodeEntry is Encode without the versioned envelope.
func encodeEntry(t CommandType, cmd any) ([]byte, error) {
	if rb, ok := registerBrokerOf(cmd); ok {
		if entry, ok := appendRegisterBroker([]byte{byte(t)}, rb); ok {
			if len(entry)-1 > compressAbove {
				return compress(t, entry[1:])
			}
			return entry, nil
		}
	}
	payload, err := state.EncodeMsgpack(cmd)
	if err != nil {
		return nil, fmt.Errorf("fsm: encode %s: %w", t, err)
	}
	if len(payload) > compressAbove {
		return compress(t, payload)
	}
	return append([]byte{byte(t)}, payload...), nil
}

// registerBrokerOf returns cmd as a *RegisterBroker when it is one, by
// value or pointer (a nil pointer is left to the codec).
func registerBrokerOf(cmd any) (*state.RegisterBroker, bool) {
	switch c := cmd.(type) {
	case *state.RegisterBroker:
		return c, c != nil
	case state.RegisterBroker:
		return &c, true
	}
	return nil, false
}

// EntryType returns the command type of an encoded entry (flag included),
// the inner one of an identified or compressed entry, from its first bytes:
// it neither inflates nor decodes the payload, so unlike Decode it does not
// notice a payload that would not decode. It fails for an empty entry and a
// type outside the vocabulary.
func EntryType(buf []byte) (CommandType, error) {
	if len(buf) == 0 {
		return 0, ErrEmptyCommand
	}
	_, buf, _, err := SplitRequestID(buf)
	if err != nil {
		return requestType, err
	}
	if _, buf, err = splitVersioned(buf); err != nil {
		return versionedType, err
	}
	if _, buf, err = splitAuditVersioned(buf); err != nil {
		return auditType, err
	}
	t := CommandType(buf[0])
	if t == compressedType {
		if len(buf) < 2 {
			return t, fmt.Errorf("%w: compressed entry without inner type", ErrDecodeCommand)
		}
		t = CommandType(buf[1])
	}
	if commands.lookup(t) == nil {
		return t, fmt.Errorf("%w: %d", ErrUnknownCommandType, uint8(t))
	}
	return t, nil
}

// Decode splits a log entry into its type (flag included) and a pointer to
// the decoded command struct, e.g. *RegisterBroker; an identified entry
// (WithRequestID) decodes to its command. A type outside the
// vocabulary gives ErrUnknownCommandType (the caller decides, by the flag,
// whether that is fatal); a payload that does not decode, or has trailing
// bytes, gives ErrDecodeCommand.
func Decode(buf []byte) (CommandType, any, error) {
	e := decodeEntry(buf)
	return e.t, e.cmd, e.err
}

// decodedEntry is a log entry's command decoded, with its RequestID when
// it carries one, or the error Decode returns for it.
type decodedEntry struct {
	id         state.RequestID
	identified bool
	t          CommandType
	cmd        any
	err        error
	// needs is the release a versioned envelope named, "" without one.
	needs string
	// stamp is the audit envelope's stamp, nil without one.
	stamp *state.AuditStamp
}

// decodeEntry decodes an entry as Decode does, keeping its RequestID.
func decodeEntry(buf []byte) (e decodedEntry) {
	if len(buf) == 0 {
		e.err = ErrEmptyCommand
		return e
	}
	e.id, buf, e.identified, e.err = SplitRequestID(buf)
	if e.err != nil {
		e.t = requestType
		return e
	}
	if e.needs, buf, e.err = splitVersioned(buf); e.err != nil {
		e.t = versionedType
		return e
	}
	if e.stamp, buf, e.err = splitAuditVersioned(buf); e.err != nil {
		e.t = auditType
		return e
	}
	e.t = CommandType(buf[0])
	if e.t == compressedType {
		if e.t, buf, e.err = decompress(buf); e.err != nil {
			return e
		}
	}
	spec := commands.lookup(e.t)
	if spec == nil {
		e.err = fmt.Errorf("%w: %d", ErrUnknownCommandType, uint8(e.t))
		return e
	}
	if e.t == RegisterBrokerType {
		if cmd, ok := decodeRegisterBroker(buf[1:]); ok {
			e.cmd = cmd
			return e
		}
	}
	cmd := spec.newCmd()
	if err := state.DecodeMsgpack(buf[1:], cmd); err != nil {
		e.err = fmt.Errorf("%w: %s: %v", ErrDecodeCommand, e.t, err)
		return e
	}
	e.cmd = cmd
	return e
}
