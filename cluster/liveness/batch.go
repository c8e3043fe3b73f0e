package liveness

import "github.com/raftns/raftns/fsm"

// Batch is one member's batch of what it heard since its last batch:
// brokers that registered unchanged or sent heartbeats, the brokers with a
// live connection to it, and the connections that closed. A follower sends
// it to the leader about once a second.
type Batch struct {
	From    string
	Touched []fsm.BrokerKey
	Held    []fsm.BrokerKey
	Closed  []fsm.BrokerKey
	// Replicas are the controller heartbeats heard (the latest of each).
	Replicas []ControllerHeartbeat
	// RecentlyClosed are brokers whose last connection here closed lately
	// and has not reopened; repeated in every batch while it lasts.
	RecentlyClosed []fsm.BrokerKey
}
