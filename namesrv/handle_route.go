package namesrv

import (
	"context"
	"strings"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// standardJSONVersion is V4_9_4: clients from it on get standard JSON routes.
const standardJSONVersion = 401

// topicNotExistFAQ is the 5.x FAQ link of the TOPIC_NOT_EXIST remark.
const topicNotExistFAQ = "https://rocketmq.apache.org/docs/bestPractice/06FAQ"

// getRouteInfoByTopic is GET_ROUTEINFO_BY_TOPIC (105): a map lookup and a
// write of an answer built once per state generation.
func (s *Server) getRouteInfoByTopic(ctx context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	key, err := s.routeKeyOf(req)
	if err != nil {
		return nil, err
	}
	gen := s.fsm.Generation()
	resp, ok := s.routes.get(gen, key)
	if !ok {
		if encoded := s.encodeRoute(key); encoded != nil {
			resp = routeResponse(encoded)
		}
		if len(key.zone) <= maxCachedZoneLen {
			s.routes.put(gen, key, resp)
		}
	}
	if resp == nil && s.clusterTestOn() {
		return s.productionRoute(ctx, key)
	}
	return routeAnswer(key.topic, resp)
}

// cachedRoute answers GET_ROUTEINFO_BY_TOPIC from the route cache alone,
// without taking a lock; ok is false when the answer is not cached (or the
// request is malformed), for getRouteInfoByTopic to build.
func (s *Server) cachedRoute(req *remoting.Command) (resp *remoting.Command, ok bool) {
	key, err := s.routeKeyOf(req)
	if err != nil {
		return nil, false
	}
	if resp, ok = s.routes.get(s.fsm.Generation(), key); !ok {
		return nil, false
	}
	if resp == nil && s.clusterTestOn() {
		// Production is asked on a handler goroutine, never inline.
		return nil, false
	}
	if resp, err = routeAnswer(key.topic, resp); err != nil {
		return errorResponse(req, err), true
	}
	return resp, true
}

// routeKeyOf names the answer a route request asks for.
func (s *Server) routeKeyOf(req *remoting.Command) (routeKey, error) {
	topic := req.ExtFields["topic"]
	if topic == "" {
		return routeKey{}, badRequest("the custom field <topic> is null")
	}
	key := routeKey{
		topic:    topic,
		standard: req.Version >= standardJSONVersion || strings.EqualFold(req.ExtFields["acceptStandardJsonOnly"], "true"),
	}
	key.order, key.acting = s.cfg.Settings.routeFlags()
	key.zone, key.zoned = zoneOf(req.ExtFields)
	return key, nil
}

// routeAnswer is the answer for topic given its cached or built route
// response, nil when the topic has no route.
func routeAnswer(topic string, resp *remoting.Command) (*remoting.Command, error) {
	if resp == nil {
		return nil, refused(remoting.TopicNotExist,
			"No topic route info in name server for the topic: "+topic+"\nSee "+topicNotExistFAQ+" for further details.")
	}
	return resp, nil
}

// routeResponse is the shared SUCCESS answer carrying an encoded route; the
// connection gives each request's copy of it that request's opaque and
// serialization.
func routeResponse(encoded []byte) *remoting.Command {
	resp := remoting.NewResponse(&remoting.Command{}, remoting.Success, "")
	resp.Body = encoded
	return resp
}

// encodeRoute builds the answer as the reference does: the route, then the
// acting-master view when supportActingMaster is on, then, for a client in
// zone mode, its zone's groups only. The reference re-encodes a
// zone-filtered route in its default JSON form, whatever the request's
// version.
func (s *Server) encodeRoute(k routeKey) []byte {
	route, ok := s.fsm.Route(k.topic, k.order)
	if !ok {
		return nil
	}
	if k.acting {
		state.ShowActingMasters(k.topic, &route)
	}
	mode := body.Default
	if k.standard {
		mode = body.Standard
	}
	if k.zoned {
		state.FilterByZone(&route, k.zone)
		mode = body.Default
	}
	return body.EncodeRoute(&route, mode)
}

// maxCachedZoneLen bounds the zone names whose filtered routes are cached:
// the zone comes from the client, and the cache must not grow with it.
const maxCachedZoneLen = 128

// zoneOf returns the zone a route request asks to be filtered to, read as the
// reference reads the extension fields: __ZONE_MODE "true" in any case and a
// non-blank __ZONE_NAME.
func zoneOf(ext map[string]string) (zone string, ok bool) {
	if !strings.EqualFold(ext["__ZONE_MODE"], "true") {
		return "", false
	}
	zone = ext["__ZONE_NAME"]
	if strings.TrimSpace(zone) == "" {
		return "", false
	}
	return zone, true
}

// getBrokerClusterInfo is GET_BROKER_CLUSTER_INFO (106).
func (s *Server) getBrokerClusterInfo(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	info := s.fsm.ClusterInfo()
	resp := success(req)
	resp.Body = body.EncodeClusterInfo(&info)
	return resp, nil
}

// getBrokerMemberGroup is GET_BROKER_MEMBER_GROUP (901, 5.x).
func (s *Server) getBrokerMemberGroup(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	f := headerFields(req)
	cluster, name := f.required("clusterName"), f.required("brokerName")
	if err := f.check(); err != nil {
		return nil, err
	}
	group := s.fsm.BrokerMemberGroup(cluster, name)
	// 5.x never clears its placeholder remark here; answer as it does.
	resp := remoting.NewResponse(req, remoting.Success, "not set any response code")
	resp.Body = body.EncodeBrokerMemberGroup(&group)
	return resp, nil
}

// topicListResponse answers a topic list request with list.
func topicListResponse(req *remoting.Command, list state.TopicList) (*remoting.Command, error) {
	resp := success(req)
	resp.Body = body.EncodeTopicList(&list)
	return resp, nil
}

// errListsDisabled is the 5.x answer when a list switch is off.
var errListsDisabled = refused(remoting.SystemError, "disable")

// topicList answers a list request from list, unless the 5.x switch gate
// is off ("" means the list cannot be switched off).
func (s *Server) topicList(gate string, list func() state.TopicList) handlerFunc {
	return func(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
		if gate != "" && !s.cfg.Settings.Bool(gate, true) {
			return nil, errListsDisabled
		}
		return topicListResponse(req, list())
	}
}

// getTopicsByCluster is GET_TOPICS_BY_CLUSTER (224); the header key is
// "cluster" and an unknown cluster answers an empty list.
func (s *Server) getTopicsByCluster(_ context.Context, _ *remoting.Conn, req *remoting.Command) (*remoting.Command, error) {
	if !s.cfg.Settings.Bool(PropEnableTopicList, true) {
		return nil, errListsDisabled
	}
	f := headerFields(req)
	cluster := f.required("cluster")
	if err := f.check(); err != nil {
		return nil, err
	}
	return topicListResponse(req, s.fsm.TopicsByCluster(cluster))
}
