// Package cluster runs the Raft node of a RaftNS member: the stores in the
// data directory, the internal RPCs it serves on the cluster port, bootstrap, join and membership changes, the write path (a follower
// reaches the leader with one retry policy, the leader's proposer applies),
// taking and leaving office, and readiness.
//
// Node orchestrates: it builds the parts, wires them and offers the public
// API, and each part is a type that holds what it reads (tenure, the office;
// proposer, the leader's side of writes; readinessMonitor; leaderWatch;
// leaderSignals; formation, bootstrap and join; membership). Broker liveness
// (package cluster/liveness: the lessor, the batch courier, the expiry scan)
// is a package of its own that does not import this one; the cluster port
// (mux, dialer, TLS and cluster key, Raft stream layer, RPC codec and pool)
// is package transport, and the forward lane is package transport/lane.
//
// It knows the fsm command vocabulary but nothing of the RocketMQ wire
// protocol, request codes included: package namesrv decodes requests
// into fsm commands and calls Node.Apply, Node.Register and
// Node.Heartbeat. Packages above it that decide on the leader run their
// operations there through a LeaderCall registered by name with typed
// requests and answers (NewLeaderCall), and their duties of the leader in
// office through an OfficeHook (Node.OnOffice); the RocketMQ 5 controller
// (package cluster/controller) is built that way.
package cluster
