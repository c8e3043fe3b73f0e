// Package state holds the replicated tables of a RaftNS name server: the
// route tables of the reference NameServer's RouteInfoManager (topics,
// broker groups, clusters, broker registrations, filter servers,
// static-topic mappings), the KV configuration, the member directory and
// the members' drains and standings, the NOTIFY_MIN_BROKER_ID_CHANGE
// notices the leader has yet to send, the RocketMQ 5 controller's replica
// groups, the sessions that apply a retried write at most once, the
// cluster version, the run-time settings and the audit trail.
//
// A State is one version of the tables. Package fsm applies the log to it
// through its Apply* methods, each a deterministic function of the state
// and a command's payload (the payload types are declared here, their
// vocabulary in fsm); the read queries return copies, with lists sorted.
// Freeze makes a version a snapshot that Write streams without a lock
// while Writable's copy-on-write successor takes the next writes; Read
// builds a State from a snapshot. Each table is a file of its own
// (table_*.go) registered with one line in tableRegistry
// (record_registry.go), which New, thaw, Write, Read and Digest loop over.
//
// The package imports neither fsm nor the Raft library.
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
package state
