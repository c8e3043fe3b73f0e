package transport

import (
	"context"
	"maps"
	"sort"
	"strings"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport/remoting"
)

// ControllerCluster is what the RocketMQ 5 controller needs of the member's
// node besides Cluster (*cluster.Node satisfies it; docs/controller.md).
type ControllerCluster interface {
	Leader() (id, addr string)
	IsLeader() bool
	OnControllerLeader(ctx context.Context, req *cluster.ControllerRequest) (*cluster.ControllerResponse, error)
	SetControllerHandler(h cluster.ControllerHandler)
	SetRoleChangeNotifier(f func(fsm.ReplicaGroup))
	SetControllerOptions(o cluster.ControllerOptions)
	ControllerOptions() cluster.ControllerOptions
	HeardReplica(hb cluster.ControllerHeartbeat)
	ReplicaAlive(key cluster.ReplicaKey) bool
	ProposeController(ctx context.Context, t fsm.CommandType, cmd any) (fsm.ControllerResult, error)
	ElectMaster(ctx context.Context, req cluster.ElectRequest) (cluster.ElectOutcome, fsm.ReplicaGroup, error)
}

// The member's node serves the controller; without this the switch would
// silently find no controller support.
var _ ControllerCluster = (*cluster.Node)(nil)

// Controller settings keys (UPDATE/GET_CONTROLLER_CONFIG), named as in the
// reference ControllerConfig.
const (
	PropEnableElectUncleanMaster = "enableElectUncleanMaster"
	PropNotifyBrokerRoleChanged  = "notifyBrokerRoleChanged"
)

// NewControllerSettings returns controller settings holding props over the
// defaults; UPDATE_CONTROLLER_CONFIG changes only these keys, and never
// configBlackList or configStorePath.
func NewControllerSettings(props map[string]string) *Settings {
	all := map[string]string{PropEnableElectUncleanMaster: "false", PropNotifyBrokerRoleChanged: "true"}
	maps.Copy(all, props)
	return NewSettings(all, nil, "configStorePath")
}

// controller serves the controller request codes on this member.
type controller struct {
	s        *Server
	node     ControllerCluster
	settings *Settings
	notifier *roleNotifier
}

// enableController wires the controller when the configuration asks for it
// and the node supports it; it returns nil otherwise.
func (s *Server) enableController() *controller {
	node, ok := s.cluster.(ControllerCluster)
	if !s.cfg.Controller.Enabled || !ok {
		return nil
	}
	settings := s.cfg.Controller.Settings
	if settings == nil {
		settings = NewControllerSettings(nil)
	}
	c := &controller{s: s, node: node, settings: settings, notifier: newRoleNotifier(node, s.logger)}
	c.applySettings()
	node.SetControllerHandler(c.serveAsLeader)
	node.SetRoleChangeNotifier(c.notifier.notify)
	return c
}

// applySettings hands the settings with an effect to the node.
func (c *controller) applySettings() {
	c.node.SetControllerOptions(cluster.ControllerOptions{
		ElectUncleanMaster:      c.settings.Bool(PropEnableElectUncleanMaster, false),
		NotifyBrokerRoleChanged: c.settings.Bool(PropNotifyBrokerRoleChanged, true),
	})
}

// handlers are the controller's entries in the dispatch table; none when
// the controller is off.
func (c *controller) handlers() map[int32]handler {
	if c == nil {
		return nil
	}
	h := map[int32]handler{
		remoting.ControllerGetMetadataInfo: {c.getMetadata, false},
		remoting.UpdateControllerConfig:    {c.updateConfig, false},
		remoting.GetControllerConfig:       {c.getConfig, false},
	}
	for _, code := range []int32{
		remoting.ControllerAlterSyncStateSet, remoting.ControllerElectMaster, remoting.ControllerRegisterBroker,
		remoting.ControllerGetReplicaInfo, remoting.ControllerGetSyncStateData, remoting.CleanBrokerData,
		remoting.ControllerGetNextBrokerID, remoting.ControllerApplyBrokerID,
	} {
		h[code] = handler{c.onLeader, false}
	}
	return h
}

// onLeader answers a controller request on the leader: the controller's
// state and the brokers' liveness are decided there; a follower forwards
// the request like any write.
func (c *controller) onLeader(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	resp, err := c.node.OnControllerLeader(ctx, &cluster.ControllerRequest{Code: req.Code, Ext: req.ExtFields, Body: req.Body})
	if err != nil {
		return nil, err
	}
	out := remoting.NewResponse(req, resp.Code, resp.Remark)
	out.ExtFields, out.Body = resp.Ext, resp.Body
	return out, nil
}

// getMetadata is CONTROLLER_GET_METADATA_INFO: the RaftNS leader is the
// controller leader, named by its client address.
func (c *controller) getMetadata(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	leaderID, _ := c.node.Leader()
	members := c.s.fsm.Members()
	sort.Slice(members, func(i, j int) bool { return members[i].ID < members[j].ID })
	var peers []string
	ext := map[string]string{"group": "raftns", "isLeader": "false"}
	for _, m := range members {
		peers = append(peers, m.ID+":"+m.ClientAddr)
		if m.ID == leaderID && leaderID != "" {
			ext["controllerLeaderId"], ext["controllerLeaderAddress"] = m.ID, m.ClientAddr
		}
	}
	ext["peers"] = strings.Join(peers, ";")
	if c.node.IsLeader() {
		ext["isLeader"] = "true"
	}
	resp := success(req)
	resp.ExtFields = ext
	return resp, nil
}

// updateConfig is UPDATE_CONTROLLER_CONFIG: like UPDATE_NAMESRV_CONFIG it
// changes this member only.
func (c *controller) updateConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	return c.s.updateSettings(req, c.settings, "controller", c.applySettings)
}

// getConfig is GET_CONTROLLER_CONFIG: key=value lines of the settings with
// their current values.
func (c *controller) getConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	o := c.node.ControllerOptions()
	props := c.settings.Properties()
	props[PropEnableElectUncleanMaster] = boolText(o.ElectUncleanMaster)
	props[PropNotifyBrokerRoleChanged] = boolText(o.NotifyBrokerRoleChanged)
	resp := success(req)
	resp.Body = FormatProperties(props)
	return resp, nil
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// heardReplica passes a controller heartbeat (BROKER_HEARTBEAT with a
// broker id) to the node and ties the broker to the connection, so its
// close counts as the broker leaving. A heartbeat without a broker id is a
// route heartbeat only; a malformed field is a bad request.
func (c *controller) heardReplica(conn *remoting.Conn, f *fields, key fsm.BrokerKey, brokerName string) error {
	if c == nil {
		return nil
	}
	id, ok := f.optInt64("brokerId")
	if !ok {
		return f.check()
	}
	epoch, _ := f.optInt64("epoch")
	maxOffset, hasOffset := f.optInt64("maxOffset")
	confirm, _ := f.optInt64("confirmOffset")
	timeout, _ := f.optInt64("heartbeatTimeoutMills")
	prio, hasPrio := f.optInt64("electionPriority")
	if err := f.check(); err != nil {
		return err
	}
	if !hasOffset {
		maxOffset = -1
	}
	if !hasPrio {
		prio = 1<<31 - 1
	}
	// Only brokers the controller assigned an id are tracked: the leader's
	// table is bounded by the replicated state, not by what senders claim.
	if g, known := c.s.fsm.ReplicaGroup(brokerName); !known || g.ClusterName != key.Cluster {
		return nil
	} else if _, known := g.Broker(id); !known {
		return nil
	}
	c.node.HeardReplica(cluster.ControllerHeartbeat{
		Key:  cluster.ReplicaKey{Cluster: key.Cluster, BrokerName: brokerName, ID: id},
		Addr: key.Addr, Epoch: int32(epoch), MaxOffset: maxOffset, ConfirmOffset: confirm,
		TimeoutMillis: timeout, ElectionPriority: int32(prio),
	})
	if conn != nil {
		c.s.brokers.attach(key, conn)
	}
	return nil
}
