package transport

import (
	"context"
	"strconv"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport/body"
	"github.com/raftns/raftns/transport/remoting"
)

// wipeWritePerm is WIPE_WRITE_PERM_OF_BROKER (205).
func (s *Server) wipeWritePerm(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return s.writePerm(ctx, req, fsm.WipeWritePermType, "wipeTopicCount")
}

// addWritePerm is ADD_WRITE_PERM_OF_BROKER (327).
func (s *Server) addWritePerm(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return s.writePerm(ctx, req, fsm.AddWritePermType, "addTopicCount")
}

func (s *Server) writePerm(ctx context.Context, req *remoting.Command, t fsm.CommandType, countField string) *remoting.Command {
	f := headerFields(req)
	name := f.required("brokerName")
	if f.err != nil {
		return remoting.NewResponse(req, remoting.SystemError, f.err.Error())
	}
	var cmd any = &fsm.WipeWritePerm{BrokerName: name}
	if t == fsm.AddWritePermType {
		cmd = &fsm.AddWritePerm{BrokerName: name}
	}
	ctx, cancel := s.writeContext(ctx)
	defer cancel()
	res, err := s.cluster.Apply(ctx, t, cmd)
	if err != nil {
		return errorResponse(req, err)
	}
	count, _ := res.(fsm.WritePermResult)
	resp := success(req)
	resp.ExtFields = map[string]string{countField: strconv.Itoa(count.TopicCount)}
	return resp
}

// deleteTopic is DELETE_TOPIC_IN_NAMESRV (216); clusterName is optional.
func (s *Server) deleteTopic(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	f := headerFields(req)
	cmd := &fsm.DeleteTopic{Topic: f.required("topic"), ClusterName: f.str("clusterName")}
	if f.err != nil {
		return remoting.NewResponse(req, remoting.SystemError, f.err.Error())
	}
	ctx, cancel := s.writeContext(ctx)
	defer cancel()
	if _, err := s.cluster.Apply(ctx, fsm.DeleteTopicType, cmd); err != nil {
		return errorResponse(req, err)
	}
	return success(req)
}

// registerTopic is REGISTER_TOPIC_IN_NAMESRV (217, 5.x): the queueDatas of a
// TopicRouteData body. An empty list is answered SUCCESS and ignored.
func (s *Server) registerTopic(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	f := headerFields(req)
	topic := f.required("topic")
	if f.err != nil {
		return remoting.NewResponse(req, remoting.SystemError, f.err.Error())
	}
	if len(req.Body) == 0 {
		return success(req)
	}
	route, err := body.DecodeTopicRouteData(req.Body)
	if err != nil {
		return remoting.NewResponse(req, remoting.SystemError, err.Error())
	}
	if len(route.QueueDatas) == 0 {
		return success(req)
	}
	ctx, cancel := s.writeContext(ctx)
	defer cancel()
	cmd := &fsm.RegisterTopic{Topic: topic, QueueDatas: route.QueueDatas}
	if _, err := s.cluster.Apply(ctx, fsm.RegisterTopicType, cmd); err != nil {
		return errorResponse(req, err)
	}
	return success(req)
}
