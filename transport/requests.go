package transport

import (
	"context"
	"maps"

	"github.com/raftns/raftns/transport/remoting"
)

// handlerFunc answers one request, or returns the error the dispatcher
// turns into the answer (errorResponse).
type handlerFunc func(ctx context.Context, c *remoting.Conn, req *remoting.Command) (*remoting.Command, error)

// handler is one request code's handler and whether it only reads (reads
// are refused while the member is not ready; writes and broker heartbeats
// are forwarded to the leader regardless, within the write timeout).
type handler struct {
	fn   handlerFunc
	read bool
}

// dispatchTable is the request code dispatch table.
func (s *Server) dispatchTable() map[int32]handler {
	t := map[int32]handler{
		remoting.PutKVConfig:                  {s.putKVConfig, false},
		remoting.GetKVConfig:                  {s.getKVConfig, true},
		remoting.DeleteKVConfig:               {s.deleteKVConfig, false},
		remoting.RegisterBroker:               {s.registerBroker, false},
		remoting.UnregisterBroker:             {s.unregisterBroker, false},
		remoting.GetRouteInfoByTopic:          {s.getRouteInfoByTopic, true},
		remoting.GetBrokerClusterInfo:         {s.getBrokerClusterInfo, true},
		remoting.WipeWritePermOfBroker:        {s.wipeWritePerm, false},
		remoting.AddWritePermOfBroker:         {s.addWritePerm, false},
		remoting.GetAllTopicListFromNameSrv:   {s.topicList(PropEnableAllTopicList, s.fsm.AllTopics), true},
		remoting.DeleteTopicInNameSrv:         {s.deleteTopic, false},
		remoting.RegisterTopicInNameSrv:       {s.registerTopic, false},
		remoting.GetKVListByNamespace:         {s.getKVList, true},
		remoting.GetTopicsByCluster:           {s.getTopicsByCluster, true},
		remoting.GetSystemTopicListFromNS:     {s.topicList("", s.fsm.SystemTopics), true},
		remoting.GetUnitTopicList:             {s.topicList(PropEnableTopicList, s.fsm.UnitTopics), true},
		remoting.GetHasUnitSubTopicList:       {s.topicList(PropEnableTopicList, s.fsm.HasUnitSubTopics), true},
		remoting.GetHasUnitSubUnunitTopicList: {s.topicList(PropEnableTopicList, s.fsm.HasUnitSubUnunitTopics), true},
		remoting.UpdateNamesrvConfig:          {s.updateNamesrvConfig, false},
		remoting.GetNamesrvConfig:             {s.getNamesrvConfig, true},
		remoting.QueryDataVersion:             {s.queryDataVersion, false},
		remoting.GetBrokerMemberGroup:         {s.getBrokerMemberGroup, true},
		remoting.BrokerHeartbeat:              {s.brokerHeartbeat, false},
	}
	maps.Copy(t, s.ctrl.handlers())
	return t
}
