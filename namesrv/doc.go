// Package transport serves the RocketMQ NameServer protocol on one member.
// One request table (requests.go) gives every request code it serves its
// handler, whether it is a read of local state, served only while the
// member is ready, and the access class protocol/acl decides on. A handler
// reads the member's fsm or writes through the cluster node, and returns an
// answer or an error; errors, the controller's refusals included, become
// answers in one place (errors.go). Around the handlers: the encoded-route
// cache and the inline answer to a cached route query, broker connection
// tracking, per-member settings and the leader's
// NOTIFY_MIN_BROKER_ID_CHANGE notifier. The RocketMQ 5 controller's request
// codes are decoded into the typed requests of package cluster/controller,
// which decides them, and its typed answers encoded here (controller*.go).
// The frame codec, TCP server and client live in protocol/remoting, the
// request and response bodies in protocol/body.
package namesrv
