package namesrv

import (
	"context"
	"strconv"
	"strings"

	"github.com/raftns/raftns/cluster/controller"
	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

func init() {
	serveController(remoting.CleanBrokerData, acl.AdminWrite, (*controllerPort).cleanBrokerData)
}

// cleanBrokerData is CLEAN_BROKER_DATA: forget brokers of a group, or the
// whole group.
func (c *controllerPort) cleanBrokerData(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	clusterName, name := f.str("clusterName"), f.required("brokerName")
	idsText := strings.TrimSpace(f.str("brokerControllerIdsToClean"))
	cleanLiving := f.boolean("isCleanLivingBroker")
	if err := f.check(); err != nil {
		return nil, err
	}
	var ids []int64
	if idsText != "" {
		for _, part := range strings.Split(idsText, ";") {
			id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
			if err != nil {
				return nil, fsm.RefuseCleanIDs(err)
			}
			ids = append(ids, id)
		}
	}
	err := c.ctrl.CleanBrokerData(ctx, controller.CleanBrokerData{ClusterName: clusterName, BrokerName: name, BrokerIDs: ids, CleanLiving: cleanLiving})
	if err != nil {
		return nil, err
	}
	return success(req), nil
}
