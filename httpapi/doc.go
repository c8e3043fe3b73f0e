// Package httpapi serves a member's admin HTTP endpoints: liveness and
// readiness probes, Prometheus metrics, status, peer operations, leader
// transfer and snapshot backup and restore. Leader-only operations sent to a
// follower are proxied to the leader's admin address from the replicated
// member directory.
package httpapi
