package namesrv

import (
	"context"
	"strconv"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.ControllerGetNextBrokerID, acl.Read, (*controllerPort).nextBrokerID)
}

// nextBrokerID is CONTROLLER_GET_NEXT_BROKER_ID: the id the next broker of a
// group should claim.
func (c *controllerPort) nextBrokerID(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.required("clusterName"), f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	next, err := c.ctrl.NextBrokerID(ctx, controller.NextBrokerID{ClusterName: clusterName, BrokerName: name})
	if err != nil {
		return nil, err
	}
	return answer(req, map[string]string{"clusterName": clusterName, "brokerName": name, "nextBrokerId": strconv.FormatInt(next, 10)}, nil), nil
}
