package transport

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/raftns/raftns/cluster"
	"github.com/raftns/raftns/transport/remoting"
)

// handlerFunc answers one request; nil means no answer.
type handlerFunc func(ctx context.Context, c *remoting.Conn, req *remoting.Command) *remoting.Command

// handler is one request code's handler and whether it only reads (reads
// are refused while the member is not ready; writes and broker heartbeats
// are forwarded to the leader regardless).
type handler struct {
	fn   handlerFunc
	read bool
}

// dispatchTable is the request code dispatch table.
func (s *Server) dispatchTable() map[int32]handler {
	return map[int32]handler{
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
}

// ServeRemoting implements remoting.Handler.
func (s *Server) ServeRemoting(ctx context.Context, c *remoting.Conn, req *remoting.Command) *remoting.Command {
	start := time.Now()
	h, ok := s.dispatch[req.Code]
	var resp *remoting.Command
	switch {
	case !ok:
		resp = remoting.NewResponse(req, remoting.RequestCodeNotSupported, fmt.Sprintf(" request type %d not supported", req.Code))
	case h.read && !s.ready():
		// An unready member drops the connection so the client moves on
		// to another name server (consensus-lessons 20).
		c.Close()
		return nil
	default:
		resp = h.fn(ctx, c, req)
	}
	if s.cfg.Observer != nil && resp != nil {
		s.cfg.Observer.ObserveRequest(req.Code, resp.Code, time.Since(start))
	}
	return resp
}

func (s *Server) ready() bool {
	ready, _ := s.cluster.Ready()
	return ready
}

// writeContext bounds a write, leader wait included.
func (s *Server) writeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.WriteTimeout)
}

// errorResponse maps an error to the RocketMQ answer; every handler error
// goes through here.
func errorResponse(req *remoting.Command, err error) *remoting.Command {
	switch {
	case errors.Is(err, cluster.ErrNoLeader), errors.Is(err, cluster.ErrLeaderNotReady), errors.Is(err, cluster.ErrNotLeader):
		return remoting.NewResponse(req, remoting.SystemError, "raftns: no leader available, retry another name server: "+err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return remoting.NewResponse(req, remoting.SystemError, "raftns: write timed out: "+err.Error())
	}
	return remoting.NewResponse(req, remoting.SystemError, err.Error())
}

// success returns an empty SUCCESS answer.
func success(req *remoting.Command) *remoting.Command {
	return remoting.NewResponse(req, remoting.Success, "")
}
