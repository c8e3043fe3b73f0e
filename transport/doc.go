// Package transport serves the RocketMQ NameServer protocol: it maps each
// request code to a read on the member's fsm or a write through the cluster
// node, and encodes the answer the way each client expects. The RocketMQ 5
// controller's request codes are decoded into the typed requests of
// package cluster/controller, which decides them, and its typed answers
// encoded here (controller*.go); errors, the controller's refusals
// included, become answers in one place (errors.go). The frame codec, TCP
// server and client live in transport/remoting, the body encoders in
// transport/body.
package transport
