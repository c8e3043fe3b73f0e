// Package adminapi holds the JSON documents of a member's admin HTTP API
// (docs/operators/operations.md): what GET /v1/status, /v1/peers, /v1/brokers and
// /v1/kv/{namespace}/{key} answer and what POST /v1/peers takes. Package
// cluster fills them, httpapi serves them, and raftnsctl and the
// tests read them.
//
// It is a leaf: it imports nothing of RaftNS and no Raft or storage
// library, so a client of the admin API builds without them.
package adminapi
