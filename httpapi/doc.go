// Package httpapi serves a member's admin HTTP endpoints: liveness and
// readiness probes, Prometheus metrics, status, peer operations, leader
// transfer and snapshot backup and restore. Leader-only operations sent to a
// follower are proxied to the leader's admin address from the replicated
// member directory. Every request passes the front door (frontdoor.go):
// the connection guard keeps slots for probes and the operator (conns.go),
// cross-origin browser requests change nothing, and with ReadsNeedToken
// reads of the state need the token.
package httpapi
