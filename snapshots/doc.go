// Package snapshots defines the on-disk format of RaftNS snapshots: a
// versioned header, a stream of typed records and a trailer with a checksum
// over everything before it. The record types and their payloads belong to
// the writer's user (package fsm); this package only frames, limits and
// verifies them, so it depends on neither fsm nor raft.
//
// Format version 1, all integers big-endian:
//
//	header   "RNSS" magic (4 bytes), format version (uint16), flags (uint16, 0)
//	record   type (uint8, 1..255), payload length (uint32), payload
//	trailer  type 0 (end marker), CRC-64/ECMA (uint64) of every byte from the
//	         start of the header through the end marker
//
// Nothing may follow the trailer. A Reader hands records out as it reads them
// and reports io.EOF only once the checksum has been verified, so a consumer
// must not commit anything it built from the records before that io.EOF.
//
// The package also converts the reference NameServer's kvConfig.json, for
// importing and exporting the KV configuration.
package snapshots
