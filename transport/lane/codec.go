package lane

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The forward lane's wire format (docs/contributors/design.md, "The forward lane"). A
// connection opens with the cluster port's forward-lane byte and a hello,
// then carries frames both ways, any number in flight, answered in any
// order:
//
//	hello, member to leader: "RNSF" version(1 byte)
//	hello, leader's answer:  "RNSF" version(1 byte), the version both speak
//	frame:                   length(4, big endian) call id(8) payload(length-8)
//	request payload:         the forwarded command, as fsm.WithRequestID made it
//	answer payload:          error kind(1) error length(uvarint) error text,
//	                         applied index(uvarint, version 2 on), result
//
// Each side speaks the lower of the two versions on the connection: a
// member of version 1 neither sends nor expects the applied index
// (LeaderReply.Index). A member that does not know the forward-lane byte
// closes the connection without a hello: the sender then forwards through
// net/rpc.
const (
	forwardLaneVersion byte = 2
	// indexedAnswers is the first version whose answers carry the
	// leader's applied index.
	indexedAnswers byte = 2
	// forwardFrameHeader is the length word and the call id.
	forwardFrameHeader = 4 + 8
	// maxForwardFrame bounds a frame's announced length: a forwarded
	// registration is at most what a broker's inflated body decodes to
	// (transport's MaxInflatedBody, 32 MiB by default), re-encoded more
	// compactly.
	maxForwardFrame = 64 << 20
	// maxForwardErrText bounds an answer's error text.
	maxForwardErrText = 4 << 10
	// forwardReadChunk is how much of a frame is allocated before its
	// bytes arrive: a large announced length allocates only as data comes.
	forwardReadChunk = 1 << 20
)

var forwardHelloMagic = [4]byte{'R', 'N', 'S', 'F'}

// errForwardFrame reports a malformed frame or hello on the forward lane.
var errForwardFrame = errors.New("cluster: malformed forward lane frame")

// forwardHello is what either side sends after the protocol byte.
func forwardHello(version byte) []byte {
	return append(forwardHelloMagic[:], version)
}

// readForwardHello reads the other side's hello and returns its version.
func readForwardHello(r io.Reader) (byte, error) {
	var b [5]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, err
	}
	if [4]byte(b[:4]) != forwardHelloMagic || b[4] == 0 {
		return 0, fmt.Errorf("%w: bad hello % x", errForwardFrame, b)
	}
	return b[4], nil
}

// appendForwardFrame appends a frame carrying payload under id; the payload
// is written by fill, which appends to its argument.
func appendForwardFrame(dst []byte, id uint64, fill func([]byte) []byte) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = binary.BigEndian.AppendUint64(dst, id)
	dst = fill(dst)
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// appendForwardRequest appends a request frame for a forwarded command.
func appendForwardRequest(dst []byte, id uint64, command []byte) []byte {
	return appendForwardFrame(dst, id, func(b []byte) []byte { return append(b, command...) })
}

// forwardErrKinds numbers LeaderReply's error kinds on the wire.
var forwardErrKinds = [...]string{KindNone, KindNotLeader, KindNotReady, KindOutcomeUnknown, KindOther}

// appendForwardAnswer appends an answer frame for reply, as a connection
// of the given version carries it.
func appendForwardAnswer(dst []byte, id uint64, reply *LeaderReply, version byte) []byte {
	kind := byte(len(forwardErrKinds) - 1) // KindOther
	for i, k := range forwardErrKinds {
		if k == reply.ErrKind {
			kind = byte(i)
			break
		}
	}
	text := reply.Err
	if len(text) > maxForwardErrText {
		text = text[:maxForwardErrText]
	}
	return appendForwardFrame(dst, id, func(b []byte) []byte {
		b = append(b, kind)
		b = binary.AppendUvarint(b, uint64(len(text)))
		b = append(b, text...)
		if version >= indexedAnswers {
			b = binary.AppendUvarint(b, reply.Index)
		}
		return append(b, reply.Result...)
	})
}

// decodeForwardAnswer decodes an answer payload of a connection of the
// given version. The result aliases p.
func decodeForwardAnswer(p []byte, version byte) (LeaderReply, error) {
	if len(p) < 1 || int(p[0]) >= len(forwardErrKinds) {
		return LeaderReply{}, fmt.Errorf("%w: answer without a known error kind", errForwardFrame)
	}
	kind := forwardErrKinds[p[0]]
	n, rest, ok := canonicalUvarint(p[1:])
	if !ok || n > maxForwardErrText || n > uint64(len(rest)) {
		return LeaderReply{}, fmt.Errorf("%w: answer's error text length", errForwardFrame)
	}
	text := rest[:n]
	if (kind == KindNone) != (len(text) == 0) {
		return LeaderReply{}, fmt.Errorf("%w: error kind %q with error text %q", errForwardFrame, kind, text)
	}
	reply := LeaderReply{ErrKind: kind, Err: string(text)}
	rest = rest[n:]
	if version >= indexedAnswers {
		if reply.Index, rest, ok = canonicalUvarint(rest); !ok {
			return LeaderReply{}, fmt.Errorf("%w: answer's applied index", errForwardFrame)
		}
	}
	if len(rest) > 0 {
		reply.Result = rest
	}
	return reply, nil
}

// canonicalUvarint reads a uvarint from the start of p and returns it and
// the bytes after it. A number written longer than needed (a zero last
// byte) is refused: one answer, one encoding.
func canonicalUvarint(p []byte) (uint64, []byte, bool) {
	n, w := binary.Uvarint(p)
	if w <= 0 || (w > 1 && p[w-1] == 0) {
		return 0, nil, false
	}
	return n, p[w:], true
}

// forwardFrameReader reads frames from a buffered connection.
type forwardFrameReader struct {
	r   io.Reader
	hdr [forwardFrameHeader]byte
}

// next reads one frame: its call id and a newly allocated payload.
func (fr *forwardFrameReader) next() (uint64, []byte, error) {
	if _, err := io.ReadFull(fr.r, fr.hdr[:]); err != nil {
		return 0, nil, err
	}
	l := binary.BigEndian.Uint32(fr.hdr[:4])
	if l < 8 || l > maxForwardFrame {
		return 0, nil, fmt.Errorf("%w: frame length %d", errForwardFrame, l)
	}
	id := binary.BigEndian.Uint64(fr.hdr[4:])
	n := int(l) - 8
	p := make([]byte, min(n, forwardReadChunk))
	if _, err := io.ReadFull(fr.r, p); err != nil {
		return 0, nil, unexpectedEOF(err)
	}
	for len(p) < n {
		// Grow only as the bytes arrive.
		k := min(n-len(p), len(p))
		p = append(p, make([]byte, k)...)
		if _, err := io.ReadFull(fr.r, p[len(p)-k:]); err != nil {
			return 0, nil, unexpectedEOF(err)
		}
	}
	return id, p, nil
}

// unexpectedEOF turns an EOF inside a frame into io.ErrUnexpectedEOF.
func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
