package snapshots

import "errors"

var (
	// ErrBadMagic means the stream does not start with the snapshot magic.
	ErrBadMagic = errors.New("snapshots: not a RaftNS snapshot (bad magic)")
	// ErrUnsupportedVersion means the format version is unknown to this build.
	ErrUnsupportedVersion = errors.New("snapshots: unsupported format version")
	// ErrBadHeader means the header carries flags this version does not define.
	ErrBadHeader = errors.New("snapshots: invalid header")
	// ErrTruncated means the stream ended before the trailer.
	ErrTruncated = errors.New("snapshots: truncated snapshot")
	// ErrChecksum means the trailer's checksum does not match the content.
	ErrChecksum = errors.New("snapshots: checksum mismatch")
	// ErrTrailingData means bytes follow the trailer.
	ErrTrailingData = errors.New("snapshots: data after the end marker")
	// ErrRecordTooLarge means a record exceeds the record size limit.
	ErrRecordTooLarge = errors.New("snapshots: record too large")
	// ErrTooLarge means the snapshot exceeds the total size limit.
	ErrTooLarge = errors.New("snapshots: snapshot exceeds the size limit")
	// ErrReservedType means a writer was asked for record type 0, which is
	// the end marker.
	ErrReservedType = errors.New("snapshots: record type 0 is reserved")
	// ErrClosed means the writer was already closed or failed.
	ErrClosed = errors.New("snapshots: writer closed")
	// ErrKVConfig means a kvConfig.json document could not be parsed.
	ErrKVConfig = errors.New("snapshots: invalid kvConfig.json")
)
