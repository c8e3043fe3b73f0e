package snapshots

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc64"
	"io"
)

// readChunk bounds how much is allocated ahead of the bytes actually read, so
// a corrupt length cannot make the reader allocate the whole record limit.
const readChunk = 1 << 20

// Reader reads a snapshot record by record. It is not safe for concurrent use.
type Reader struct {
	br      *bufio.Reader
	crc     hash.Hash64
	limits  Limits
	version uint16
	total   int64
	err     error // sticky; io.EOF once the trailer verified
}

// NewReader reads and checks the header of a snapshot with DefaultLimits.
// A stream that is not a snapshot or has an unknown format version gives an
// error wrapping ErrBadMagic or ErrUnsupportedVersion.
func NewReader(r io.Reader) (*Reader, error) {
	return NewReaderLimits(r, DefaultLimits())
}

// NewReaderLimits is NewReader with explicit limits; zero fields take the
// defaults.
func NewReaderLimits(r io.Reader, l Limits) (*Reader, error) {
	if l.MaxRecordSize <= 0 {
		l.MaxRecordSize = DefaultMaxRecordSize
	}
	if l.MaxTotalSize <= 0 {
		l.MaxTotalSize = DefaultMaxTotalSize
	}
	sr := &Reader{br: bufio.NewReaderSize(r, 64<<10), crc: crc64.New(crcTable), limits: l}
	var hdr [headerSize]byte
	if err := sr.readFull(hdr[:]); err != nil {
		return nil, err
	}
	if !bytes.Equal(hdr[:4], magic[:]) {
		return nil, ErrBadMagic
	}
	sr.version = binary.BigEndian.Uint16(hdr[4:6])
	if sr.version != FormatVersion {
		return nil, fmt.Errorf("%w: %d (this build reads up to %d)", ErrUnsupportedVersion, sr.version, FormatVersion)
	}
	if flags := binary.BigEndian.Uint16(hdr[6:8]); flags != 0 {
		return nil, fmt.Errorf("%w: flags %#04x", ErrBadHeader, flags)
	}
	return sr, nil
}

// Version returns the snapshot's format version.
func (r *Reader) Version() uint16 { return r.version }

// Next returns the next record. The payload is a fresh slice the caller may
// keep. After the last record it verifies the checksum and that nothing
// follows the trailer, then returns io.EOF; a mismatch returns an error
// wrapping ErrChecksum instead. Errors are sticky.
func (r *Reader) Next() (recType uint8, payload []byte, err error) {
	if r.err != nil {
		return 0, nil, r.err
	}
	recType, payload, err = r.next()
	if err != nil {
		r.err = err
	}
	return recType, payload, err
}

func (r *Reader) next() (uint8, []byte, error) {
	var hdr [recordHdrSize]byte
	if err := r.readFull(hdr[:1]); err != nil {
		return 0, nil, err
	}
	if hdr[0] == endMarker {
		return 0, nil, r.trailer()
	}
	if err := r.readFull(hdr[1:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if int64(n) > int64(r.limits.MaxRecordSize) {
		return 0, nil, fmt.Errorf("%w: type %d, %d bytes (limit %d)", ErrRecordTooLarge, hdr[0], n, r.limits.MaxRecordSize)
	}
	payload, err := r.readPayload(int(n))
	if err != nil {
		return 0, nil, err
	}
	return hdr[0], payload, nil
}

// trailer checks the checksum that follows the end marker and that the
// stream ends there.
func (r *Reader) trailer() error {
	want := r.crc.Sum64()
	var sum [checksumSize]byte
	if _, err := io.ReadFull(r.br, sum[:]); err != nil {
		return r.readErr(err)
	}
	if got := binary.BigEndian.Uint64(sum[:]); got != want {
		return fmt.Errorf("%w: stored %016x, computed %016x", ErrChecksum, got, want)
	}
	if _, err := r.br.ReadByte(); err == nil {
		return ErrTrailingData
	} else if !errors.Is(err, io.EOF) {
		return fmt.Errorf("snapshots: read: %w", err)
	}
	return io.EOF
}

func (r *Reader) readPayload(n int) ([]byte, error) {
	buf := make([]byte, 0, min(n, readChunk))
	for len(buf) < n {
		k := min(n-len(buf), readChunk)
		buf = append(buf, make([]byte, k)...)
		if err := r.readFull(buf[len(buf)-k:]); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// readFull reads exactly len(p) hashed bytes within the total size limit.
func (r *Reader) readFull(p []byte) error {
	if r.total+int64(len(p)) > r.limits.MaxTotalSize {
		return fmt.Errorf("%w: limit %d bytes", ErrTooLarge, r.limits.MaxTotalSize)
	}
	n, err := io.ReadFull(r.br, p)
	r.total += int64(n)
	r.crc.Write(p[:n])
	if err != nil {
		return r.readErr(err)
	}
	return nil
}

func (r *Reader) readErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w after %d bytes", ErrTruncated, r.total)
	}
	return fmt.Errorf("snapshots: read: %w", err)
}
