// Package fsm is the replicated state machine of a RaftNS name server: it
// applies the Raft log to the replicated tables of package state, and
// answers reads from them under its lock.
//
// State changes only through typed commands, each described once in the
// registry (commands.go): the Raft log carries one as a type byte and a
// msgpack payload (Encode, Decode; a registration has its own encoder and
// decoder of the same bytes), DEFLATE-compressed above 16 KiB and wrapped
// with the RequestID of the member that took the write (WithRequestID).
// FSM.Apply and ApplyBatch apply them deterministically: no clock, no I/O,
// no randomness and no output that depends on Go map order. An entry this
// member proposes can be handed over already decoded (Proposal, Expect).
// Reads (query_*.go) return copies, with lists sorted, that are safe to use
// after the lock is released. Snapshots freeze the state (copy-on-write) and
// stream it through package snapshots.
// The package does not depend on the Raft library: it applies Entry values
// and writes snapshots to any SnapshotSink; package cluster adapts both to
// hashicorp/raft. The value types of the tables and the commands' payloads
// are package state's; callers name them there (state.TopicConfig).
package fsm
