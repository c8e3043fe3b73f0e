// Package launch starts and drives child processes for the multi-process
// tests of cmd/raftns and cmd/raftnsctl, the chaos test and the load
// generator bench/raftns-bench: it builds the raftns binary, picks free
// loopback ports, starts a Process (any program, such as `raftns-bench
// serve-raw`) or a Member (a raftns member) with its output captured or
// logged to a file, stops it with SIGKILL or SIGTERM, and reads a member's
// admin HTTP endpoints (/v1/status, /readyz) with polling bounded by a
// deadline.
//
// It knows raftns only from the outside: its command-line flags and the
// admin API's JSON (internal/adminapi). It imports no other RaftNS package
// but internal/poll, so the tests it serves exercise the binary as an
// operator runs it.
package launch
