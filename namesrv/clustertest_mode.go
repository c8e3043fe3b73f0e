package namesrv

import (
	"context"
	"errors"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/body"
	"github.com/raftns/raftns/protocol/remoting"
)

// Cluster-test mode properties, named as in the reference.
const (
	// PropClusterTest answers route queries for topics this cluster does
	// not hold with the production environment's route.
	PropClusterTest = "clusterTest"
	// PropProductEnvName is production's unit: the address service is
	// asked for nsaddr-<unit>.
	PropProductEnvName = "productEnvName"
	// PropProductionNamesrvAddr lists production's name servers directly
	// (RaftNS's own setting; it comes before every other source).
	PropProductionNamesrvAddr = "productionNamesrvAddr"
	// PropNamesrvAddr, PropNamesrvDomain and PropNamesrvDomainSubgroup are
	// the reference's system properties by which its admin client finds
	// name servers (rocketmq.namesrv.addr before the NAMESRV_ADDR
	// environment variable, then the address service).
	PropNamesrvAddr           = "rocketmq.namesrv.addr"
	PropNamesrvDomain         = "rocketmq.namesrv.domain"
	PropNamesrvDomainSubgroup = "rocketmq.namesrv.domain.subgroup"
)

// ProductionRoutes looks up routes in the production environment for
// cluster-test mode (namesrv/production implements it).
type ProductionRoutes interface {
	// Route returns production's route of topic; found is false when
	// production does not know the topic either.
	Route(ctx context.Context, topic string) (route *state.TopicRouteData, found bool, err error)
}

// ErrProductionBusy is wrapped by a ProductionRoutes error that refuses a
// lookup because too many are under way; the query is answered SYSTEM_BUSY.
var ErrProductionBusy = errors.New("too many production lookups under way")

// remarkClusterTest begins the remark of a production lookup that failed.
const remarkClusterTest = "cluster-test mode: "

// clusterTestOn reports whether unknown topics are looked up in production.
func (s *Server) clusterTestOn() bool {
	return s.cfg.Production != nil && s.cfg.Settings.clusterTest()
}

// productionRoute answers a route query for a topic this cluster does not
// hold from production, shaped for the request as a local route is. What
// production answers is never stored in this cluster's state.
func (s *Server) productionRoute(ctx context.Context, key routeKey) (*remoting.Command, error) {
	route, found, err := s.cfg.Production.Route(ctx, key.topic)
	switch {
	case errors.Is(err, ErrProductionBusy):
		return nil, refused(remoting.SystemBusy, remarkClusterTest+err.Error())
	case err != nil:
		return nil, refused(remoting.SystemError, remarkClusterTest+err.Error())
	case !found:
		return routeAnswer(key.topic, nil)
	}
	mode := body.Default
	if key.standard {
		mode = body.Standard
	}
	if key.zoned {
		state.FilterByZone(route, key.zone)
		mode = body.Default
	}
	return routeResponse(body.EncodeRoute(route, mode)), nil
}
