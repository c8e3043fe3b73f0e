package namesrv

import (
	"context"
	"fmt"

	"github.com/raftns/raftns/fsm"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// putKVConfig is PUT_KV_CONFIG (100).
func (s *Server) putKVConfig(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	ns, key := req.ExtFields["namespace"], req.ExtFields["key"]
	if ns == "" || key == "" {
		return nil, badRequest("namespace or key is null")
	}
	value, hasValue := req.ExtFields["value"]
	cmd := &state.PutKV{Namespace: ns, Key: key, Value: value, HasValue: hasValue}
	_, err := s.cluster.Apply(ctx, fsm.PutKVType, cmd)
	return success(req), err
}

// getKVConfig is GET_KV_CONFIG (101).
func (s *Server) getKVConfig(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	ns, key := req.ExtFields["namespace"], req.ExtFields["key"]
	value, ok := s.fsm.KV(ns, key)
	if !ok {
		return nil, &answerError{code: remoting.QueryNotFound, ext: map[string]string{},
			remark: fmt.Sprintf("No config item, Namespace: %s Key: %s", javaString(ns), javaString(key))}
	}
	resp := success(req)
	resp.ExtFields = map[string]string{"value": value}
	return resp, nil
}

// deleteKVConfig is DELETE_KV_CONFIG (102).
func (s *Server) deleteKVConfig(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	ns, key := req.ExtFields["namespace"], req.ExtFields["key"]
	if ns == "" || key == "" {
		return nil, badRequest("namespace or key is null")
	}
	_, err := s.cluster.Apply(ctx, fsm.DeleteKVType, &state.DeleteKV{Namespace: ns, Key: key})
	return success(req), err
}

// getKVList is GET_KVLIST_BY_NAMESPACE (219).
func (s *Server) getKVList(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	ns := req.ExtFields["namespace"]
	table, ok := s.fsm.KVList(ns)
	if !ok {
		return nil, refused(remoting.QueryNotFound, "No config item, Namespace: "+javaString(ns))
	}
	resp := success(req)
	resp.Body = body.EncodeKVTable(table)
	return resp, nil
}

// javaString prints an absent value the way Java string concatenation does.
func javaString(s string) string {
	if s == "" {
		return "null"
	}
	return s
}
