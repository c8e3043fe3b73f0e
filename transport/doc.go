// Package transport is the member-to-member transport of the cluster port:
// the mux that hands each connection to Raft, the internal RPC server or the
// forward lane by its first byte; the dialer, with mutual TLS and the
// cluster-key challenge; the Raft stream layer that waits for a member to
// listen again; the replication-pipeline wrappers; and the internal RPC
// codec and client pool. Package lane is the forward lane.
//
// It knows neither the fsm nor the Node: package cluster serves the RPCs
// and runs Raft on what this package accepts and dials.
package transport
