package cluster

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/raftns/raftns/fsm"
)

// ControllerOptions are the per-member controller settings
// (UPDATE_CONTROLLER_CONFIG); the leader's apply.
type ControllerOptions struct {
	// ElectUncleanMaster lets an election pick a replica outside the
	// SyncStateSet when none inside is alive (enableElectUncleanMaster).
	ElectUncleanMaster bool
	// NotifyBrokerRoleChanged pushes NOTIFY_BROKER_ROLE_CHANGED to the
	// group's brokers after an election (notifyBrokerRoleChanged).
	NotifyBrokerRoleChanged bool
}

// controllerHooks are what the transport registers on the node.
type controllerHooks struct {
	notify  atomic.Pointer[func(fsm.ReplicaGroup)]
	options atomic.Pointer[ControllerOptions]
	scanNow chan struct{}
	// electMu serialises elections on the leader.
	electMu sync.Mutex
}

// SetRoleChangeNotifier registers what tells a group's brokers about a new
// master; the leader calls it after an election it committed, never Apply.
func (n *Node) SetRoleChangeNotifier(f func(fsm.ReplicaGroup)) { n.ctrl.notify.Store(&f) }

// SetControllerOptions replaces this member's controller settings.
func (n *Node) SetControllerOptions(o ControllerOptions) { n.ctrl.options.Store(&o) }

// ControllerOptions returns this member's controller settings.
func (n *Node) ControllerOptions() ControllerOptions {
	if o := n.ctrl.options.Load(); o != nil {
		return *o
	}
	return ControllerOptions{NotifyBrokerRoleChanged: true}
}

// HeardReplica records a controller heartbeat (BROKER_HEARTBEAT with a
// broker id); a follower passes it to the leader with its next batch.
func (n *Node) HeardReplica(hb ControllerHeartbeat) { n.lessor.HeardReplica(hb) }

// ReplicaAlive reports whether the leader counts a replica as active. Only
// meaningful on the leader in office; elsewhere it is false.
func (n *Node) ReplicaAlive(key ReplicaKey) bool { return n.lessor.ReplicaAlive(key) }

// ProposeController proposes a controller command as the leader in office
// (through ApplyLeaderOnly) and returns the FSM's answer. The handler calls
// it after the leader-only checks; a follower never proposes controller
// commands.
func (n *Node) ProposeController(ctx context.Context, t fsm.CommandType, cmd any) (fsm.ControllerResult, error) {
	res, err := n.ApplyLeaderOnly(ctx, t, cmd)
	if err != nil {
		return fsm.ControllerResult{}, err
	}
	r, ok := res.(fsm.ControllerResult)
	if !ok {
		return fsm.ControllerResult{}, fmt.Errorf("%s answered %T", t, res)
	}
	return r, nil
}

// requestControllerScan asks the leader loop to look for dead masters now.
func (n *Node) requestControllerScan() {
	n.offices.connClosed()
	select {
	case n.ctrl.scanNow <- struct{}{}:
	default:
	}
}
