// Package transport serves the RocketMQ NameServer protocol: it maps each
// request code to a read on the member's fsm or a write through the cluster
// node, and encodes the answer the way each client expects. The frame codec,
// TCP server and client live in transport/remoting, the body encoders in
// transport/body.
package transport
