package namesrv

import (
	"context"
	"strings"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.ControllerApplyBrokerID, acl.Write, (*controllerPort).applyBrokerID)
}

// applyBrokerID is CONTROLLER_APPLY_BROKER_ID: the broker claims an id; the
// leader commits it.
func (c *controllerPort) applyBrokerID(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	id := f.int64("appliedBrokerId")
	code := f.required("registerCheckCode")
	if err := f.check(); err != nil {
		return nil, err
	}
	addr, _, _ := strings.Cut(code, ";")
	if err := c.ctrl.ApplyBrokerID(ctx, controller.ApplyBrokerID{ClusterName: clusterName, BrokerName: name, BrokerID: id, Addr: addr, CheckCode: code}); err != nil {
		return nil, err
	}
	return answer(req, map[string]string{"clusterName": clusterName, "brokerName": name}, nil), nil
}
