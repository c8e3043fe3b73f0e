package snapshots

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc64"
	"io"
)

// Writer streams a snapshot: NewWriter writes the header, WriteRecord one
// record each, Close the trailer. It buffers; nothing is complete until Close
// returns nil. A Writer is not safe for concurrent use.
type Writer struct {
	bw  *bufio.Writer
	crc hash.Hash64
	err error
}

// NewWriter writes the header of a FormatVersion snapshot to w and returns a
// Writer for its records.
func NewWriter(w io.Writer) (*Writer, error) {
	sw := &Writer{bw: bufio.NewWriterSize(w, 64<<10), crc: crc64.New(crcTable)}
	var hdr [headerSize]byte
	copy(hdr[:4], magic[:])
	binary.BigEndian.PutUint16(hdr[4:6], FormatVersion)
	if err := sw.write(hdr[:]); err != nil {
		return nil, err
	}
	return sw, nil
}

// WriteRecord appends one record. recType must not be 0 and the payload must
// not exceed DefaultMaxRecordSize. After an error the Writer is unusable.
func (w *Writer) WriteRecord(recType uint8, payload []byte) error {
	if w.err != nil {
		return w.err
	}
	if recType == endMarker {
		return ErrReservedType
	}
	if len(payload) > DefaultMaxRecordSize {
		return fmt.Errorf("%w: %d bytes (limit %d)", ErrRecordTooLarge, len(payload), DefaultMaxRecordSize)
	}
	var hdr [recordHdrSize]byte
	hdr[0] = recType
	binary.BigEndian.PutUint32(hdr[1:], uint32(len(payload)))
	if err := w.write(hdr[:]); err != nil {
		return err
	}
	return w.write(payload)
}

// Close writes the end marker and the checksum and flushes. It does not close
// the underlying writer. Calling it twice returns ErrClosed.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.write([]byte{endMarker}); err != nil {
		return err
	}
	var sum [checksumSize]byte
	binary.BigEndian.PutUint64(sum[:], w.crc.Sum64())
	if _, err := w.bw.Write(sum[:]); err != nil {
		return w.fail(err)
	}
	if err := w.bw.Flush(); err != nil {
		return w.fail(err)
	}
	w.err = ErrClosed
	return nil
}

func (w *Writer) write(p []byte) error {
	w.crc.Write(p) // hash.Hash never fails
	if _, err := w.bw.Write(p); err != nil {
		return w.fail(err)
	}
	return nil
}

func (w *Writer) fail(err error) error {
	w.err = fmt.Errorf("snapshots: write: %w", err)
	return w.err
}
