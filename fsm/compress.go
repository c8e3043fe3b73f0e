package fsm

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sync"
)

// compressedType marks an entry whose payload is DEFLATE-compressed: the
// byte after it is the inner command type, the rest the compressed msgpack.
// Large registrations (brokers with thousands of topics) stay well under
// Raft's suggested 512 KiB per entry this way (docs/contributors/design.md, "Entry size").
const compressedType CommandType = 0x40

// compressAbove is the payload size from which entries are compressed.
const compressAbove = 16 << 10

// maxInflated bounds a decompressed payload.
const maxInflated = 64 << 20

// flateWriters reuses compressors: each one holds about 1 MiB of tables.
var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // BestSpeed is a valid level
	return w
}}

func compress(t CommandType, payload []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(payload) / 4)
	buf.WriteByte(byte(compressedType))
	buf.WriteByte(byte(t))
	w := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(payload); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decompress returns the inner type and the entry rebuilt uncompressed.
func decompress(buf []byte) (CommandType, []byte, error) {
	if len(buf) < 2 {
		return compressedType, nil, fmt.Errorf("%w: compressed entry without inner type", ErrDecodeCommand)
	}
	t := CommandType(buf[1])
	if t == compressedType {
		return t, nil, fmt.Errorf("%w: nested compression", ErrDecodeCommand)
	}
	r := flate.NewReader(bytes.NewReader(buf[2:]))
	defer r.Close()
	out := bytes.NewBuffer([]byte{byte(t)})
	n, err := io.Copy(out, io.LimitReader(r, maxInflated+1))
	if err != nil {
		return t, nil, fmt.Errorf("%w: %s: inflate: %v", ErrDecodeCommand, t, err)
	}
	if n > maxInflated {
		return t, nil, fmt.Errorf("%w: %s: inflates beyond %d bytes", ErrDecodeCommand, t, maxInflated)
	}
	return t, out.Bytes(), nil
}
