package namesrv

import (
	"context"
	"errors"
	"fmt"

	"github.com/raftns/raftns/protocol/acl"
	"github.com/raftns/raftns/protocol/remoting"
)

// handlerFunc answers one request, or returns the error the dispatcher
// turns into the answer (errorResponse).
type handlerFunc func(ctx context.Context, c *remoting.Conn, req *remoting.Command) (*remoting.Command, error)

// A row's readiness: a read of local state is refused while the member is
// not ready (docs/contributors/design.md, "Readiness"); anything else, writes and broker
// and controller requests, is served in any state within the write
// timeout (writes are forwarded to the leader).
const (
	whenReady = true
	anyTime   = false
)

// codeRow is one request code in the request table: the access it needs,
// whether it is a read served only while the member is ready, and its
// handler. Rows are written positionally, so a row that leaves out its
// access class does not compile.
type codeRow struct {
	code   int32
	access acl.Class
	read   bool
	fn     handlerFunc
}

// requestTable lists every request code the server serves, the
// controller's included: dispatch and access control both read it.
func (s *Server) requestTable() []codeRow {
	rows := []codeRow{
		{remoting.PutKVConfig, acl.AdminWrite, anyTime, s.putKVConfig},
		{remoting.GetKVConfig, acl.Read, whenReady, s.getKVConfig},
		{remoting.DeleteKVConfig, acl.AdminWrite, anyTime, s.deleteKVConfig},
		{remoting.RegisterBroker, acl.BrokerWrite, anyTime, s.registerBroker},
		{remoting.UnregisterBroker, acl.BrokerWrite, anyTime, s.unregisterBroker},
		{remoting.GetRouteInfoByTopic, acl.Read, whenReady, s.getRouteInfoByTopic},
		{remoting.GetBrokerClusterInfo, acl.Read, whenReady, s.getBrokerClusterInfo},
		{remoting.WipeWritePermOfBroker, acl.AdminWrite, anyTime, s.wipeWritePerm},
		{remoting.AddWritePermOfBroker, acl.AdminWrite, anyTime, s.addWritePerm},
		{remoting.GetAllTopicListFromNameSrv, acl.Read, whenReady, s.topicList(PropEnableAllTopicList, s.fsm.AllTopics)},
		{remoting.DeleteTopicInNameSrv, acl.AdminWrite, anyTime, s.deleteTopic},
		{remoting.RegisterTopicInNameSrv, acl.AdminWrite, anyTime, s.registerTopic},
		{remoting.GetKVListByNamespace, acl.Read, whenReady, s.getKVList},
		{remoting.GetTopicsByCluster, acl.Read, whenReady, s.getTopicsByCluster},
		{remoting.GetSystemTopicListFromNS, acl.Read, whenReady, s.topicList("", s.fsm.SystemTopics)},
		{remoting.GetUnitTopicList, acl.Read, whenReady, s.topicList(PropEnableTopicList, s.fsm.UnitTopics)},
		{remoting.GetHasUnitSubTopicList, acl.Read, whenReady, s.topicList(PropEnableTopicList, s.fsm.HasUnitSubTopics)},
		{remoting.GetHasUnitSubUnunitTopicList, acl.Read, whenReady, s.topicList(PropEnableTopicList, s.fsm.HasUnitSubUnunitTopics)},
		{remoting.UpdateNamesrvConfig, acl.AdminWrite, anyTime, s.updateNamesrvConfig},
		{remoting.GetNamesrvConfig, acl.Read, whenReady, s.getNamesrvConfig},
		{remoting.QueryDataVersion, acl.BrokerRead, anyTime, s.queryDataVersion},
		{remoting.GetBrokerMemberGroup, acl.Read, whenReady, s.getBrokerMemberGroup},
		{remoting.BrokerHeartbeat, acl.BrokerWrite, anyTime, s.brokerHeartbeat},
	}
	return append(rows, s.ctrl.handlers()...)
}

// errIncompleteRow reports a request table row missing a part.
var errIncompleteRow = errors.New("transport: incomplete request table row")

// dispatchOf indexes rows by code. A row without an access class or a
// handler, or a code listed twice, is refused: New panics on it, so a
// code cannot be served without its class.
func dispatchOf(rows []codeRow) (map[int32]codeRow, error) {
	t := make(map[int32]codeRow, len(rows))
	for _, r := range rows {
		switch _, taken := t[r.code]; {
		case !r.access.Valid():
			return nil, fmt.Errorf("%w: request code %d has no access class", errIncompleteRow, r.code)
		case r.fn == nil:
			return nil, fmt.Errorf("%w: request code %d has no handler", errIncompleteRow, r.code)
		case taken:
			return nil, fmt.Errorf("%w: request code %d is listed twice", errIncompleteRow, r.code)
		}
		t[r.code] = r
	}
	return t, nil
}
