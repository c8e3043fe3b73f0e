package namesrv

import (
	"context"
	"maps"
	"strings"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

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

// controllerPort serves the controller request codes on this member: it
// decodes requests for the Controller and encodes its answers.
type controllerPort struct {
	s        *Server
	ctrl     *controller.Controller
	settings *Settings
	notifier *roleNotifier
}

// enableController wires the controller when the configuration asks for it
// and the node supports it; it returns nil otherwise.
func (s *Server) enableController() *controllerPort {
	node, ok := s.cluster.(*cluster.Node)
	if !ok {
		return nil
	}
	logger := s.logger.Named("controller")
	ctrl := controller.New(node, controller.Config{Serving: s.cfg.Controller.Enabled, Logger: logger})
	if !s.cfg.Controller.Enabled {
		return nil
	}
	settings := s.cfg.Controller.Settings
	if settings == nil {
		settings = NewControllerSettings(nil)
	}
	c := &controllerPort{s: s, ctrl: ctrl, settings: settings, notifier: newRoleNotifier(logger)}
	c.applySettings()
	settings.OnChange(c.applySettings)
	ctrl.SetNotifier(c.notifier.notify)
	return c
}

// applySettings hands the settings with an effect to the controller.
func (c *controllerPort) applySettings() {
	c.ctrl.SetOptions(controller.Options{
		ElectUncleanMaster:      c.settings.Bool(PropEnableElectUncleanMaster, false),
		NotifyBrokerRoleChanged: c.settings.Bool(PropNotifyBrokerRoleChanged, true),
	})
}

// controllerRow is a controller request code's row in the request table:
// its access class and its handler, a method of the controllerPort.
// Controller requests are served in any state (anyTime).
type controllerRow struct {
	code   int32
	access acl.Class
	fn     portHandler
}

// portHandler is a controller request's handler, a method expression of
// the controllerPort: (*controllerPort).foo.
type portHandler func(*controllerPort, context.Context, *remoting.Conn, *remoting.Command) (*remoting.Command, error)

// handlers are the controller's rows in the request table; none when the
// controller is off.
func (c *controllerPort) handlers() []codeRow {
	if c == nil {
		return nil
	}
	rows := make([]codeRow, 0, len(controllerRows))
	for _, r := range controllerRows {
		rows = append(rows, codeRow{r.code, r.access, anyTime, func(ctx context.Context, conn *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
			return r.fn(c, ctx, conn, req)
		}})
	}
	return rows
}

// getMetadata is CONTROLLER_GET_METADATA_INFO: the RaftNS leader is the
// controller leader, named by its client address.
func (c *controllerPort) getMetadata(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	md := c.ctrl.Metadata()
	peers := make([]string, 0, len(md.Peers))
	for _, p := range md.Peers {
		peers = append(peers, p.ID+":"+p.Addr)
	}
	ext := map[string]string{"group": "raftns", "isLeader": boolText(md.IsLeader), "peers": strings.Join(peers, ";")}
	if md.Leader.ID != "" {
		ext["controllerLeaderId"], ext["controllerLeaderAddress"] = md.Leader.ID, md.Leader.Addr
	}
	return answer(req, ext, nil), nil
}

// updateConfig is UPDATE_CONTROLLER_CONFIG: like UPDATE_NAMESRV_CONFIG it
// changes the cluster's settings once the cluster version allows it, this
// member's before.
func (c *controllerPort) updateConfig(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	return c.s.updateSettings(ctx, req, c.settings, state.SettingsController, "controller")
}

// getConfig is GET_CONTROLLER_CONFIG: key=value lines of the settings with
// their current values.
func (c *controllerPort) getConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	o := c.ctrl.Options()
	props := c.settings.Properties()
	props[PropEnableElectUncleanMaster] = boolText(o.ElectUncleanMaster)
	props[PropNotifyBrokerRoleChanged] = boolText(o.NotifyBrokerRoleChanged)
	resp := success(req)
	resp.Body = body.FormatProperties(props)
	return resp, nil
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// heardReplica passes a controller heartbeat (BROKER_HEARTBEAT with a
// broker id) to the controller and ties the broker to the connection, so
// its close counts as the broker leaving. A heartbeat without a broker id
// is a route heartbeat only; a malformed field is a bad request.
func (c *controllerPort) heardReplica(conn *remoting.Conn, f *fields, key state.BrokerKey, brokerName string) error {
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
	tracked := c.ctrl.HeardReplica(cluster.ControllerHeartbeat{
		Key:  cluster.ReplicaKey{Cluster: key.Cluster, BrokerName: brokerName, ID: id},
		Addr: key.Addr, Epoch: int32(epoch), MaxOffset: maxOffset, ConfirmOffset: confirm,
		TimeoutMillis: timeout, ElectionPriority: int32(prio),
	})
	if tracked && conn != nil {
		c.s.brokers.attach(key, conn)
	}
	return nil
}
