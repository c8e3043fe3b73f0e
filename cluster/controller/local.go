package controller

import (
	"sort"

	"github.com/raftns/raftns/cluster"
)

// What any member answers itself, without the leader.

// Metadata answers CONTROLLER_GET_METADATA_INFO: the Raft leader is the
// controller leader.
type Metadata struct {
	// Peers are the members by id.
	Peers []Peer
	// Leader is the leader among Peers; its ID is "" when no member is
	// known to lead.
	Leader Peer
	// IsLeader reports whether this member leads.
	IsLeader bool
}

// Peer is a member as the controller names it: its id and client address.
type Peer struct {
	ID   string
	Addr string
}

// Metadata returns the controller's members and leader.
func (c *Controller) Metadata() Metadata {
	leaderID, _ := c.node.Leader()
	members := c.fsm.Members()
	sort.Slice(members, func(i, j int) bool { return members[i].ID < members[j].ID })
	md := Metadata{IsLeader: c.node.IsLeader()}
	for _, m := range members {
		md.Peers = append(md.Peers, Peer{ID: m.ID, Addr: m.ClientAddr})
		if m.ID == leaderID && leaderID != "" {
			md.Leader = Peer{ID: m.ID, Addr: m.ClientAddr}
		}
	}
	return md
}

// HeardReplica records a controller heartbeat (BROKER_HEARTBEAT with a
// broker id) and reports whether it did: only brokers the controller
// assigned an id are tracked, so the leader's table is bounded by the
// replicated state, not by what senders claim.
func (c *Controller) HeardReplica(hb cluster.ControllerHeartbeat) bool {
	g, known := c.fsm.ReplicaGroup(hb.Key.BrokerName)
	if !known || g.ClusterName != hb.Key.Cluster {
		return false
	}
	if _, known := g.Broker(hb.Key.ID); !known {
		return false
	}
	c.live.HeardReplica(hb)
	return true
}
