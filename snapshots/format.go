package snapshots

import "hash/crc64"

// FormatVersion is the format version this build writes. Every version ever
// released stays readable; the readers for older ones live beside it.
const FormatVersion uint16 = 1

// Limits a Reader applies to untrusted input. The Writer refuses records above
// DefaultMaxRecordSize so that everything it writes can be read back.
const (
	// DefaultMaxRecordSize is the largest payload of one record.
	DefaultMaxRecordSize = 64 << 20
	// DefaultMaxTotalSize is the largest snapshot, header and trailer included.
	DefaultMaxTotalSize int64 = 16 << 30
)

const (
	headerSize    = 8
	endMarker     = 0
	recordHdrSize = 5 // type byte + uint32 length
	checksumSize  = 8
)

var magic = [4]byte{'R', 'N', 'S', 'S'}

var crcTable = crc64.MakeTable(crc64.ECMA)

// Limits bounds what a Reader accepts.
type Limits struct {
	// MaxRecordSize is the largest record payload, in bytes.
	MaxRecordSize int
	// MaxTotalSize is the largest snapshot, in bytes.
	MaxTotalSize int64
}

// DefaultLimits returns the limits NewReader uses.
func DefaultLimits() Limits {
	return Limits{MaxRecordSize: DefaultMaxRecordSize, MaxTotalSize: DefaultMaxTotalSize}
}
