package namesrv

import (
	"context"
	"strconv"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// wipeWritePerm is WIPE_WRITE_PERM_OF_BROKER (205).
func (s *Server) wipeWritePerm(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	return s.writePerm(ctx, req, fsm.WipeWritePermType, "wipeTopicCount")
}

// addWritePerm is ADD_WRITE_PERM_OF_BROKER (327).
func (s *Server) addWritePerm(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	return s.writePerm(ctx, req, fsm.AddWritePermType, "addTopicCount")
}

func (s *Server) writePerm(ctx context.Context, req *remoting.Command, t fsm.CommandType, countField string) (*remoting.Command, error) {
	f := headerFields(req)
	name := f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	var cmd any = &state.WipeWritePerm{BrokerName: name}
	if t == fsm.AddWritePermType {
		cmd = &state.AddWritePerm{BrokerName: name}
	}
	res, err := s.cluster.Apply(ctx, t, cmd)
	if err != nil {
		return nil, err
	}
	count, _ := res.(state.WritePermResult)
	resp := success(req)
	resp.ExtFields = map[string]string{countField: strconv.Itoa(count.TopicCount)}
	return resp, nil
}

// deleteTopic is DELETE_TOPIC_IN_NAMESRV (216); clusterName is optional.
func (s *Server) deleteTopic(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	cmd := &state.DeleteTopic{Topic: f.required("topic"), ClusterName: f.str("clusterName")}
	if err := f.check(); err != nil {
		return nil, err
	}
	_, err := s.cluster.Apply(ctx, fsm.DeleteTopicType, cmd)
	return success(req), err
}

// registerTopic is REGISTER_TOPIC_IN_NAMESRV (217, 5.x): the queueDatas of a
// TopicRouteData body. An empty list is answered SUCCESS and ignored.
func (s *Server) registerTopic(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	topic := f.required("topic")
	if err := f.check(); err != nil {
		return nil, err
	}
	if len(req.Body) == 0 {
		return success(req), nil
	}
	route, err := body.DecodeTopicRouteData(req.Body)
	if err != nil {
		return nil, badRequest(err.Error())
	}
	if len(route.QueueDatas) == 0 {
		return success(req), nil
	}
	cmd := &state.RegisterTopic{Topic: topic, QueueDatas: route.QueueDatas}
	_, err = s.cluster.Apply(ctx, fsm.RegisterTopicType, cmd)
	return success(req), err
}
