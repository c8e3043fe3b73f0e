// Package liveness is broker liveness on one member (docs/contributors/design.md,
// "Leader-only liveness"): the Lessor, which batches what this member hears
// from brokers and, on the leader in office, keeps the lease table of every
// broker and the controller's replica leases; the Courier, which delivers a
// follower's batch to the leader; and the Expirer, which turns what the
// lease table finds due into expiry commands.
//
// The state is soft: monotonic time, never replicated, never in a snapshot.
// The package does not know Raft or the cluster package: the member passes
// in a clock, reads of the FSM, and functions to reach the leader, to
// verify leadership and to propose.
package liveness
