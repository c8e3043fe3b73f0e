package controller

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
)

// Controller is the RocketMQ 5 controller of one member (docs/operators/controller.md):
// it decides the controller's requests on the leader in office, where the
// brokers' liveness is known, elects a new master when one stops and has
// the group's brokers told.
type Controller struct {
	node    *cluster.Node
	fsm     *fsm.FSM
	live    Liveness
	logger  hclog.Logger
	serving bool
	calls   []any // the declared request kinds' leader calls, by slot

	options atomic.Pointer[Options]
	notify  atomic.Pointer[func(RoleChange)]
	// electMu serialises elections on the leader.
	electMu sync.Mutex
	// termMu guards term, the master scan of the current term of office
	// (nil out of office).
	termMu sync.Mutex
	term   *scanTerm
}

// Liveness is what the controller needs of replica liveness; the node's
// Replicas provide it.
type Liveness interface {
	HeardReplica(hb cluster.ControllerHeartbeat)
	ReplicaAlive(key cluster.ReplicaKey) bool
	ReplicaLive(key cluster.ReplicaKey) (cluster.ReplicaLive, bool)
	PruneReplicas(groups []state.ReplicaGroup)
	ReplicasSettleAt() time.Time
}

// Config configures a member's controller.
type Config struct {
	// Serving answers the controller's requests on this member as the
	// leader (the reference's enableControllerInNamesrv). Elections of
	// groups whose master stopped run on every leader regardless.
	Serving bool
	Logger  hclog.Logger
}

// Options are this member's controller settings (UPDATE_CONTROLLER_CONFIG);
// the leader's apply.
type Options struct {
	// ElectUncleanMaster lets an election pick a replica outside the
	// SyncStateSet when none inside is alive (enableElectUncleanMaster).
	ElectUncleanMaster bool
	// NotifyBrokerRoleChanged pushes NOTIFY_BROKER_ROLE_CHANGED to the
	// group's brokers after an election (notifyBrokerRoleChanged).
	NotifyBrokerRoleChanged bool
}

// RoleChange is an election the leader committed, for the group's brokers
// to be told: the group afterwards, and which of its brokers the leader
// counts as alive (asked as each is told).
type RoleChange struct {
	Group state.ReplicaGroup
	Alive func(id int64) bool
}

// New returns node's controller: it registers the controller's calls on
// the leader and its master scan as an office hook.
func New(node *cluster.Node, cfg Config) *Controller {
	if cfg.Logger == nil {
		cfg.Logger = hclog.NewNullLogger()
	}
	c := &Controller{node: node, fsm: node.FSM(), live: node.Replicas(), logger: cfg.Logger, serving: cfg.Serving}
	c.calls = c.registerCalls()
	node.OnOffice("controller", c)
	return c
}

// SetNotifier registers what tells a group's brokers about a new master;
// the leader calls it after an election it committed, never Apply.
func (c *Controller) SetNotifier(f func(RoleChange)) { c.notify.Store(&f) }

// SetOptions replaces this member's controller settings.
func (c *Controller) SetOptions(o Options) { c.options.Store(&o) }

// Options returns this member's controller settings.
func (c *Controller) Options() Options {
	if o := c.options.Load(); o != nil {
		return *o
	}
	return Options{NotifyBrokerRoleChanged: true}
}

func replicaKey(g *state.ReplicaGroup, id int64) cluster.ReplicaKey {
	return cluster.ReplicaKey{Cluster: g.ClusterName, BrokerName: g.BrokerName, ID: id}
}

func (c *Controller) alive(g *state.ReplicaGroup, id int64) bool {
	return c.live.ReplicaAlive(replicaKey(g, id))
}

// aliveIDs returns the ids of the group's brokers the leader counts as
// alive.
func (c *Controller) aliveIDs(g *state.ReplicaGroup) []int64 {
	var ids []int64
	for _, b := range g.Brokers {
		if c.alive(g, b.ID) {
			ids = append(ids, b.ID)
		}
	}
	return ids
}
