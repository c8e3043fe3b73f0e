// Package controller is the RocketMQ 5 controller of a RaftNS member
// (docs/operators/controller.md): the Raft leader is the controller leader, and the
// controller's state is part of the replicated FSM.
//
// It works on typed requests and answers, one pair per request kind
// (docs/operators/controller.md, "Protocol coverage"), never on request
// codes or frames: package namesrv decodes a request's header and body
// into one, calls the Controller and encodes the answer. Each request kind
// has one file holding its request and answer types, its exported method
// and its decision, declared with onLeader (applybrokerid.go,
// electmaster.go, ...). Requests are decided on the leader in office,
// where the brokers' liveness is known, reached through a
// cluster.LeaderCall per request kind that New registers (calls.go,
// leader.go); a refusal is a *state.Refused error whose remark package state words. As a
// cluster.OfficeHook the Controller scans, while this member is the leader
// in office, for groups whose master stopped and elects a new one
// (scan.go, elect.go). It reaches replica liveness through Liveness,
// which the node's Replicas satisfy.
//
// It imports cluster and fsm and is imported by namesrv.
package controller
