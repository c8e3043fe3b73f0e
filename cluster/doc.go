// Package cluster runs the Raft node of a RaftNS member: the stores in the
// data directory, the cluster port that carries Raft traffic and the internal
// RPCs, bootstrap, join and membership changes, the write path (a leader
// applies, a follower forwards to the leader), and the leader-only broker
// liveness tracker that turns silence into expiry commands.
//
// It knows the fsm command vocabulary but nothing of the RocketMQ wire
// protocol, request codes included: package transport decodes requests
// into fsm commands and calls Node.Apply, Node.Register and
// Node.Heartbeat. Packages above it that decide on the leader run their
// operations there through a LeaderCall registered by name with typed
// requests and answers (NewLeaderCall), and their duties of the leader in
// office through an OfficeHook (Node.OnOffice); the RocketMQ 5 controller
// (package cluster/controller) is built that way.
package cluster
