package fsm

import (
	"encoding/binary"
	"github.com/raftns/raftns/fsm/state"
	"math"
)

// appendRequestID appends the msgpack encoding of id that the codec's
// reflection encoder gives with msgpackHandle (a map of the fields sorted by
// name, unsigned integers in their smallest unsigned form), byte for byte:
// every client or broker write carries one, and the codec builds an encoder
// for each. TestRequestIDCodec_MatchesCodec holds the two to the same bytes.
func appendRequestID(b []byte, id state.RequestID) []byte {
	b = mpMapHeader(b, 3)
	b = mpUint(mpStr(b, "Floor"), id.Floor)
	b = mpUint(mpStr(b, "Seq"), id.Seq)
	return mpStr(mpStr(b, "Session"), id.Session)
}

// decodeRequestID reads a RequestID of exactly the shape appendRequestID
// writes from the start of buf and returns it with the number of bytes it
// took. It reports false for anything else, which the caller hands to the
// codec, so what decodes, and how, does not change.
func decodeRequestID(buf []byte) (state.RequestID, int, bool) {
	r := mpReader{b: buf}
	var id state.RequestID
	ok := r.mapHeader(3) &&
		r.key("Floor") && r.uint64(&id.Floor) &&
		r.key("Seq") && r.uint64(&id.Seq) &&
		r.key("Session") && r.str(&id.Session)
	return id, len(buf) - len(r.b), ok
}

// mpUint appends u in the smallest unsigned form.
func mpUint(b []byte, u uint64) []byte {
	switch {
	case u <= math.MaxInt8:
		return append(b, byte(u))
	case u <= math.MaxUint8:
		return append(b, 0xcc, byte(u))
	case u <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(u))
	case u <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(u))
	default:
		return binary.BigEndian.AppendUint64(append(b, 0xcf), u)
	}
}

// uint64 reads an unsigned integer in any of the forms mpUint writes.
func (r *mpReader) uint64(dst *uint64) bool {
	t, ok := r.byte()
	if !ok {
		return false
	}
	var v []byte
	switch t {
	case 0xcc:
		if v, ok = r.next(1); ok {
			*dst = uint64(v[0])
		}
	case 0xcd:
		if v, ok = r.next(2); ok {
			*dst = uint64(binary.BigEndian.Uint16(v))
		}
	case 0xce:
		if v, ok = r.next(4); ok {
			*dst = uint64(binary.BigEndian.Uint32(v))
		}
	case 0xcf:
		if v, ok = r.next(8); ok {
			*dst = binary.BigEndian.Uint64(v)
		}
	default:
		if t > 0x7f {
			return false
		}
		*dst = uint64(t)
	}
	return ok
}
