// Package lane is the forward lane: the connection on which a member sends
// the writes it takes to the leader and receives the answers, any number in
// flight on one connection (docs/contributors/design.md, "The forward lane"). It holds
// the wire format, the member's side (Lanes), the leader's side (Server and
// the Workers that run forwarded writes) and LeaderReply, the answer of
// every operation a member runs on the leader for another.
//
// It knows neither Raft nor the fsm: the cluster package gives it a way to
// dial and a function that applies a forwarded write.
package lane
