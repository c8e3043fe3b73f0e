// Package launch starts and drives raftns member processes for the
// multi-process tests of cmd/raftns and cmd/raftnsctl and for the load
// generator cmd/raftns-bench: it builds the raftns binary, picks free
// loopback ports, starts a Member with its output captured, stops it with
// SIGKILL or SIGTERM, and reads its admin HTTP endpoints (/v1/status,
// /readyz) with polling bounded by a deadline.
//
// It knows raftns only from the outside: its command-line flags and the
// JSON of GET /v1/status (cluster.Status). It imports no RaftNS package, so
// the tests it serves exercise the binary as an operator runs it.
package launch
