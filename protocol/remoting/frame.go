package remoting

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// MaxHeaderLength is the largest header this package reads or writes. The
// wire format allows 16 MiB - 1, but a NameServer header is a few hundred
// bytes (the largest, REGISTER_BROKER, carries a dozen short ext fields), so
// 64 KiB rejects garbage early while leaving ample room for long remarks.
const MaxHeaderLength = 64 << 10

// headerLengthMask extracts the 24-bit header length from the header-length word.
const headerLengthMask = 0xFFFFFF

// frameLength validates the length prefix L (docs/contributors/protocol.md, "Frames"): it must
// hold at least the header-length word and stay within MaxFrameLength.
func frameLength(prefix []byte) (int, error) {
	l := int64(int32(binary.BigEndian.Uint32(prefix)))
	switch {
	case l < 0:
		return 0, fmt.Errorf("%w: negative frame length %d", ErrBadLength, l)
	case l < 4:
		return 0, fmt.Errorf("%w: frame length %d is shorter than the header-length word", ErrBadLength, l)
	case l > MaxFrameLength:
		return 0, &frameSizeError{size: l}
	}
	return int(l), nil
}

// headerWord validates the header-length word of a frame of length l: a known
// serialize type in the top byte and a 24-bit header length within both the
// frame and MaxHeaderLength.
func headerWord(word uint32, l int) (SerializeType, int, error) {
	st := SerializeType(word >> 24)
	h := int(word & headerLengthMask)
	switch {
	case !st.valid():
		return 0, 0, fmt.Errorf("%w: %d", ErrUnknownSerializeType, byte(st))
	case h > l-4:
		return 0, 0, fmt.Errorf("%w: header length %d exceeds frame length %d - 4", ErrBadLength, h, l)
	case h > MaxHeaderLength:
		return 0, 0, fmt.Errorf("%w: %d bytes, limit %d", ErrHeaderTooLarge, h, MaxHeaderLength)
	}
	return st, h, nil
}

// decodeHeader parses hdr in serialization st into c.
func decodeHeader(st SerializeType, hdr []byte, c *Command) error {
	c.SerializeType = st
	if st == SerializeRocketMQ {
		return decodeBinaryHeader(hdr, c)
	}
	return decodeJSONHeader(hdr, c)
}

// DecodeFrame decodes one frame given without its 4-byte length prefix, so
// len(frame) is the announced length L. The returned Command does not
// retain frame.
func DecodeFrame(frame []byte) (*Command, error) {
	l := len(frame)
	switch {
	case l < 4:
		return nil, fmt.Errorf("%w: %d bytes, the header-length word needs 4", ErrTruncated, l)
	case l > MaxFrameLength:
		return nil, &frameSizeError{size: int64(l)}
	}
	st, h, err := headerWord(binary.BigEndian.Uint32(frame), l)
	if err != nil {
		return nil, err
	}
	c := new(Command)
	if err := decodeHeader(st, frame[4:4+h], c); err != nil {
		return nil, err
	}
	if body := frame[4+h:]; len(body) > 0 {
		c.Body = append([]byte(nil), body...)
	}
	return c, nil
}

// ReadCommand reads one frame from r. It returns io.EOF only when r ends
// cleanly between frames; a frame cut short gives ErrTruncated (wrapping
// io.ErrUnexpectedEOF), and other read errors are returned unchanged. After
// any error the stream position is undefined and the connection should be
// closed. Headers that fit r's buffer are decoded in place, without a copy.
func ReadCommand(r *bufio.Reader) (*Command, error) { return readCommand(r, true) }

// SkipCommand reads one frame like ReadCommand but discards its body
// without buffering it, so a request refused for lack of memory can still
// be answered by its opaque.
func SkipCommand(r *bufio.Reader) (*Command, error) { return readCommand(r, false) }

// PeekFrameLength returns the length word of the next frame without
// consuming it, validated as ReadCommand does.
func PeekFrameLength(r *bufio.Reader) (int, error) {
	p, err := r.Peek(4)
	if len(p) == 4 {
		return frameLength(p)
	}
	if err == io.EOF && len(p) == 0 {
		return 0, io.EOF
	}
	return 0, readErr(err)
}

func readCommand(r *bufio.Reader, keepBody bool) (*Command, error) {
	// Check the length word on its own first, so that a frame announcing
	// fewer than 4 bytes is refused before waiting for a header word.
	if p, _ := r.Peek(4); len(p) == 4 {
		if _, lerr := frameLength(p); lerr != nil {
			return nil, lerr
		}
	}
	prefix, err := r.Peek(8)
	if len(prefix) >= 4 {
		l, lerr := frameLength(prefix)
		if lerr != nil {
			return nil, lerr
		}
		if err == nil {
			return readFrame(r, l, binary.BigEndian.Uint32(prefix[4:]), keepBody)
		}
	}
	if err == io.EOF && len(prefix) == 0 {
		return nil, io.EOF
	}
	return nil, readErr(err)
}

func readFrame(r *bufio.Reader, l int, word uint32, keepBody bool) (*Command, error) {
	st, h, err := headerWord(word, l)
	if err != nil {
		return nil, err
	}
	_, _ = r.Discard(8) // peeked
	c := new(Command)
	if h <= r.Size() {
		hdr, err := r.Peek(h)
		if err != nil {
			return nil, readErr(err)
		}
		err = decodeHeader(st, hdr, c)
		_, _ = r.Discard(h)
		if err != nil {
			return nil, err
		}
	} else {
		hdr := make([]byte, h)
		if _, err := io.ReadFull(r, hdr); err != nil {
			return nil, readErr(err)
		}
		if err := decodeHeader(st, hdr, c); err != nil {
			return nil, err
		}
	}
	n := l - 4 - h
	switch {
	case n <= 0:
	case !keepBody:
		if _, err := r.Discard(n); err != nil {
			return nil, readErr(err)
		}
	default:
		if c.Body, err = readBody(r, n); err != nil {
			return nil, readErr(err)
		}
	}
	return c, nil
}

// bodyChunk bounds the memory committed to a body before its bytes arrive, so
// a peer announcing 16 MiB and sending nothing costs little.
const bodyChunk = 1 << 20

// readBody reads n bytes, growing the buffer as data arrives.
func readBody(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, min(n, bodyChunk))
	read := 0
	for {
		m, err := io.ReadFull(r, buf[read:])
		read += m
		if err != nil {
			return nil, err
		}
		if read == n {
			return buf, nil
		}
		buf = append(buf, make([]byte, min(n, 2*len(buf))-len(buf))...)
	}
}

// readErr maps an unexpected end of stream inside a frame to ErrTruncated.
func readErr(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%w: %w", ErrTruncated, io.ErrUnexpectedEOF)
	}
	return err
}
