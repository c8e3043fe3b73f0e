package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/raftns/raftns/fsm"
)

// controllerMethod is the RPC that carries a controller request from a
// follower to the leader.
const controllerMethod = "Controller"

// ControllerRequest is a RocketMQ controller request as a broker or mqadmin
// sent it, for the leader to answer (docs/controller.md).
type ControllerRequest struct {
	Code int32
	Ext  map[string]string
	Body []byte
}

// ControllerResponse is the leader's answer to a ControllerRequest.
type ControllerResponse struct {
	Code   int32
	Remark string
	Ext    map[string]string
	Body   []byte
}

// ControllerHandler answers controller requests on the leader. It runs only
// on a leader in office and may use the leader-only methods (ReplicaAlive,
// ProposeController, ElectMaster).
type ControllerHandler func(ctx context.Context, req *ControllerRequest) (*ControllerResponse, error)

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
	handler atomic.Pointer[ControllerHandler]
	notify  atomic.Pointer[func(fsm.ReplicaGroup)]
	options atomic.Pointer[ControllerOptions]
	scanNow chan struct{}
	// electMu serialises elections on the leader.
	electMu sync.Mutex
}

// SetControllerHandler registers the leader-side controller handler.
func (n *Node) SetControllerHandler(h ControllerHandler) { n.ctrl.handler.Store(&h) }

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

// OnControllerLeader answers a controller request on the leader: here when
// this member leads, otherwise over the cluster port, with the retry policy
// of every write (docs/design.md, "Reaching the leader").
func (n *Node) OnControllerLeader(ctx context.Context, req *ControllerRequest) (*ControllerResponse, error) {
	res, err := n.onLeader(ctx, leaderOp{
		method: controllerMethod,
		args:   func() (any, error) { return req, nil },
		local:  func(ctx context.Context) (any, error) { return n.controllerAsLeader(ctx, req) },
		decode: func(b []byte) (any, error) {
			var r ControllerResponse
			if err := json.Unmarshal(b, &r); err != nil {
				return nil, fmt.Errorf("controller answer: %w", err)
			}
			return &r, nil
		},
	})
	if err != nil {
		return nil, err
	}
	return res.(*ControllerResponse), nil
}

// errNoControllerHandler: the member serves no controller requests.
var errNoControllerHandler = errors.New("raftns: the controller is not enabled on the leader")

func (n *Node) controllerAsLeader(ctx context.Context, req *ControllerRequest) (*ControllerResponse, error) {
	if err := n.leaderReadyFor(ctx); err != nil {
		return nil, err
	}
	h := n.ctrl.handler.Load()
	if h == nil {
		return nil, errNoControllerHandler
	}
	return (*h)(ctx, req)
}

// Controller answers a follower's controller request if this member leads.
func (e *rpcEndpoint) Controller(args *ControllerRequest, reply *LeaderReply) error {
	return e.run(reply, e.n.cfg.ApplyTimeout, func(ctx context.Context) ([]byte, error) {
		resp, err := e.n.controllerAsLeader(ctx, args)
		if err != nil {
			return nil, err
		}
		return json.Marshal(resp)
	})
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
