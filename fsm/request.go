package fsm

import (
	"errors"
	"fmt"

	"github.com/raftns/raftns/fsm/state"
)

// MaxSessionLen bounds RequestID.Session.
const MaxSessionLen = 128

// requestType marks an entry that carries a RequestID: the byte is followed
// by the msgpack RequestID and then by the command's own entry (plain or
// compressed). It is an envelope, like compressedType, not a command.
const requestType CommandType = 20

// ErrSuperseded is Apply's answer to a copy of a request whose Seq is below
// a Floor applied before it: the session had answered or given up the
// request by then. This copy changed nothing; an earlier copy may have been
// applied (its answer was sent, or the client was told the outcome is
// unknown), so the error does not mean "never applied".
var ErrSuperseded = errors.New("fsm: request superseded by a newer one of its session; this copy was not applied")

// errBadRequestID means a RequestID is malformed.
var errBadRequestID = errors.New("fsm: malformed request id")

func validateRequestID(id state.RequestID) error {
	switch {
	case id.Session == "" || len(id.Session) > MaxSessionLen:
		return fmt.Errorf("%w: session of %d bytes", errBadRequestID, len(id.Session))
	case id.Seq == 0 || id.Floor == 0 || id.Floor > id.Seq:
		return fmt.Errorf("%w: seq %d, floor %d", errBadRequestID, id.Seq, id.Floor)
	}
	return nil
}

// WithRequestID wraps an encoded entry (Encode's output) with id.
func WithRequestID(id state.RequestID, entry []byte) ([]byte, error) {
	if err := validateRequestID(id); err != nil {
		return nil, err
	}
	if len(entry) == 0 || CommandType(entry[0]) == requestType {
		return nil, fmt.Errorf("%w: cannot wrap an empty or already identified entry", errBadRequestID)
	}
	out := make([]byte, 0, 1+requestIDSizeHint+len(id.Session)+len(entry))
	out = appendRequestID(append(out, byte(requestType)), id)
	return append(out, entry...), nil
}

// requestIDSizeHint is the encoded size of a RequestID without its
// session: field names, headers and the two integers at their longest.
const requestIDSizeHint = 40

// decodeRequestIDHeader decodes the RequestID at the start of buf and
// returns the number of bytes it took: by hand when it has the shape
// WithRequestID writes, otherwise with the codec.
func decodeRequestIDHeader(buf []byte) (state.RequestID, int, error) {
	if id, n, ok := decodeRequestID(buf); ok {
		return id, n, nil
	}
	var id state.RequestID
	n, err := state.DecodeMsgpackPrefix(buf, &id)
	return id, n, err
}

// SplitRequestID returns the RequestID and the inner entry of an identified
// entry; ok is false (and inner is buf) for an entry without one.
func SplitRequestID(buf []byte) (id state.RequestID, inner []byte, ok bool, err error) {
	if len(buf) == 0 || CommandType(buf[0]) != requestType {
		return id, buf, false, nil
	}
	id, n, err := decodeRequestIDHeader(buf[1:])
	if err != nil {
		return id, nil, true, fmt.Errorf("%w: %v", ErrDecodeCommand, err)
	}
	if err := validateRequestID(id); err != nil {
		return id, nil, true, fmt.Errorf("%w: %v", ErrDecodeCommand, err)
	}
	inner = buf[1+n:]
	if len(inner) == 0 || CommandType(inner[0]) == requestType {
		return id, nil, true, fmt.Errorf("%w: identified entry without a command", ErrDecodeCommand)
	}
	return id, inner, true, nil
}
