package remoting

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
)

// appendFrameHead appends the length prefix, header-length word and header
// of c's frame, with the prefix counting len(c.Body); the caller writes the
// body after it. It enforces MaxHeaderLength and MaxFrameLength so that no
// peer's decoder will reject what is written.
func appendFrameHead(dst []byte, c *Command) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0)
	var err error
	switch c.SerializeType {
	case SerializeJSON:
		dst, err = appendJSONHeader(dst, c)
	case SerializeRocketMQ:
		dst, err = appendBinaryHeader(dst, c)
	default:
		err = fmt.Errorf("%w: %d", ErrUnknownSerializeType, byte(c.SerializeType))
	}
	if err != nil {
		return dst[:start], err
	}
	h := len(dst) - start - 8
	if h > MaxHeaderLength {
		return dst[:start], fmt.Errorf("%w: %d bytes, limit %d", ErrHeaderTooLarge, h, MaxHeaderLength)
	}
	l := 4 + h + len(c.Body)
	if l > MaxFrameLength {
		return dst[:start], fmt.Errorf("%w: frame length %d exceeds %d", ErrFrameTooLarge, l, MaxFrameLength)
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(l))
	binary.BigEndian.PutUint32(dst[start+4:], uint32(c.SerializeType)<<24|uint32(h))
	return dst, nil
}

// AppendFrame appends c's whole frame, length prefix included, to dst,
// writing the header in c.SerializeType. On error dst is returned unchanged.
func AppendFrame(dst []byte, c *Command) ([]byte, error) {
	out, err := appendFrameHead(dst, c)
	if err != nil {
		return dst, err
	}
	return append(out, c.Body...), nil
}

// EncodeFrame returns c's whole frame, length prefix included.
func EncodeFrame(c *Command) ([]byte, error) {
	return AppendFrame(make([]byte, 0, 256+len(c.Body)), c)
}

// headPool recycles buffers for WriteCommand's frame heads.
var headPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// WriteCommand writes c's frame to w. The body is handed to w as it is,
// without copying it behind the header, and net.Buffers lets a net.Conn send
// both in one writev.
func WriteCommand(w io.Writer, c *Command) error {
	bp := headPool.Get().(*[]byte)
	defer headPool.Put(bp)
	head, err := appendFrameHead((*bp)[:0], c)
	*bp = head[:0]
	if err != nil {
		return err
	}
	if len(c.Body) == 0 {
		_, err = w.Write(head)
		return err
	}
	bufs := net.Buffers{head, c.Body}
	_, err = bufs.WriteTo(w)
	return err
}

// FrameLength returns the length c's frame would announce (the length
// prefix's value) and whether it is within MaxFrameLength and
// MaxHeaderLength, so that a peer can read it.
func FrameLength(c *Command) (int, bool) {
	head, err := appendFrameHead(nil, c)
	if err == nil {
		return len(head) - 4 + len(c.Body), true
	}
	scratch := *c
	scratch.Body = nil
	if head, err = appendFrameHead(nil, &scratch); err != nil {
		return 0, false
	}
	return len(head) - 4 + len(c.Body), false
}
