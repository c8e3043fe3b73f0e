package cluster

import (
	"time"

	"github.com/raftns/raftns/cluster/liveness"
	"github.com/raftns/raftns/fsm/state"
)

// Replicas is this member's part in the liveness of the controller's
// replicas (docs/operators/controller.md, "Liveness"): it takes the heartbeats of
// brokers in controller mode on every member and, on the leader in office,
// says which replicas count as alive.
type Replicas struct{ l *liveness.Lessor }

// Replicas returns this member's replica liveness.
func (n *Node) Replicas() Replicas { return Replicas{l: n.lessor} }

// ReplicaSettleMargin is how long after taking office the reports of a
// majority of the members are enough for connection closes seen around
// the change of leader to count (ReplicasSettleAt is the latest moment).
const ReplicaSettleMargin = liveness.SettleMargin

// HeardReplica records a controller heartbeat (BROKER_HEARTBEAT with a
// broker id); a follower passes it to the leader with its next batch.
func (r Replicas) HeardReplica(hb ControllerHeartbeat) { r.l.HeardReplica(hb) }

// ReplicaAlive reports whether the leader counts a replica as active. Only
// meaningful on the leader in office; elsewhere it is false.
func (r Replicas) ReplicaAlive(key ReplicaKey) bool { return r.l.ReplicaAlive(key) }

// ReplicaLive returns the log position a replica last reported to this
// leader.
func (r Replicas) ReplicaLive(key ReplicaKey) (ReplicaLive, bool) { return r.l.ReplicaLive(key) }

// PruneReplicas forgets what the leader holds about replicas no longer in
// groups.
func (r Replicas) PruneReplicas(groups []state.ReplicaGroup) { r.l.PruneReplicas(groups) }

// ReplicasSettleAt is when connection closes seen around taking office
// start to count (zero when not in office).
func (r Replicas) ReplicasSettleAt() time.Time { return r.l.ReplicasSettleAt() }
