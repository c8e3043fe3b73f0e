package transport

import (
	"context"
	"fmt"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/transport/body"
	"github.com/raftns/raftns/transport/remoting"
)

// putKVConfig is PUT_KV_CONFIG (100).
func (s *Server) putKVConfig(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	ns, key := req.ExtFields["namespace"], req.ExtFields["key"]
	if ns == "" || key == "" {
		return remoting.NewResponse(req, remoting.SystemError, "namespace or key is null")
	}
	value, hasValue := req.ExtFields["value"]
	ctx, cancel := s.writeContext(ctx)
	defer cancel()
	cmd := &fsm.PutKV{Namespace: ns, Key: key, Value: value, HasValue: hasValue}
	if _, err := s.cluster.Apply(ctx, fsm.PutKVType, cmd); err != nil {
		return errorResponse(req, err)
	}
	return success(req)
}

// getKVConfig is GET_KV_CONFIG (101).
func (s *Server) getKVConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	ns, key := req.ExtFields["namespace"], req.ExtFields["key"]
	value, ok := s.fsm.KV(ns, key)
	if !ok {
		resp := remoting.NewResponse(req, remoting.QueryNotFound,
			fmt.Sprintf("No config item, Namespace: %s Key: %s", javaString(ns), javaString(key)))
		resp.ExtFields = map[string]string{}
		return resp
	}
	resp := success(req)
	resp.ExtFields = map[string]string{"value": value}
	return resp
}

// deleteKVConfig is DELETE_KV_CONFIG (102).
func (s *Server) deleteKVConfig(ctx context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	ns, key := req.ExtFields["namespace"], req.ExtFields["key"]
	if ns == "" || key == "" {
		return remoting.NewResponse(req, remoting.SystemError, "namespace or key is null")
	}
	ctx, cancel := s.writeContext(ctx)
	defer cancel()
	if _, err := s.cluster.Apply(ctx, fsm.DeleteKVType, &fsm.DeleteKV{Namespace: ns, Key: key}); err != nil {
		return errorResponse(req, err)
	}
	return success(req)
}

// getKVList is GET_KVLIST_BY_NAMESPACE (219).
func (s *Server) getKVList(_ context.Context, _ *remoting.Conn, req *remoting.Command) *remoting.Command {
	ns := req.ExtFields["namespace"]
	table, ok := s.fsm.KVList(ns)
	if !ok {
		return remoting.NewResponse(req, remoting.QueryNotFound, "No config item, Namespace: "+javaString(ns))
	}
	resp := success(req)
	resp.Body = body.EncodeKVTable(table)
	return resp
}

// javaString prints an absent value the way Java string concatenation does.
func javaString(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
