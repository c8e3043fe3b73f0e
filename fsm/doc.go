// Package fsm holds the replicated state of a RaftNS name server: the route
// tables of the reference NameServer's RouteInfoManager (topics, broker
// groups, clusters, broker registrations, filter servers, static-topic
// mappings), the KV configuration, the member directory, the
// NOTIFY_MIN_BROKER_ID_CHANGE notices the leader has yet to send, the
// RocketMQ 5 controller's replica groups (broker ids, master, SyncStateSet
// and their epochs), and the sessions that apply a retried write at most
// once.
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
// hashicorp/raft.
//
// Where 5.x and 4.9 differ, the 5.x RouteInfoManager semantics are ported.
// Deliberate deviations, each commented where it is implemented:
//   - a first registration carrying exactly one topic is accepted (5.x
//     answers "register broker failed");
//   - deleteTopicWithBrokerRegistration is carried by the registration
//     command (the receiving member's setting) and never by a split one;
//   - the supportActingMaster and zone views are applied to a route copy by
//     the caller (ShowActingMasters, FilterByZone), per member setting;
//   - NOTIFY_MIN_BROKER_ID_CHANGE is recorded as a pending notice that the
//     leader acknowledges and then sends (the FSM does no I/O);
//   - an expiry of an address that no group of its cluster lists drops its
//     live entry (the reference leaves it to be "expired" forever);
//   - unregistering a name whose group is gone skips the acting-master check
//     (the reference throws there);
//   - "first QueueData" of the unit lists and the system list's brokerAddr
//     follow broker-name order instead of Java hash order.
package fsm
