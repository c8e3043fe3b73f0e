package namesrv

import (
	"fmt"

	"github.com/raftns/raftns/protocol/remoting"
)

// fitFrame returns resp, or, when resp would not fit in one frame (the
// RocketMQ protocol's 16 MiB limit, which every client enforces on what it
// reads), a SYSTEM_ERROR that names the limit, the answer's size and how to
// ask for less. Without it the answer could not be written at all, or a
// client would refuse to read it and close the connection.
func fitFrame(req, resp *remoting.Command) *remoting.Command {
	if resp == nil || len(resp.Body)+4+remoting.MaxHeaderLength <= remoting.MaxFrameLength {
		return resp // even the largest header leaves room
	}
	probe := *resp
	probe.SerializeType = req.SerializeType
	n, fits := remoting.FrameLength(&probe)
	if fits {
		return resp
	}
	return remoting.NewResponse(req, remoting.SystemError, fmt.Sprintf(
		"raftns: the answer is %d bytes, above the %d-byte frame limit of the RocketMQ protocol; %s",
		n, remoting.MaxFrameLength, askForLess(req.Code)))
}

// askForLess is the way out for an answer too large for a frame.
func askForLess(code int32) string {
	switch code {
	case remoting.GetAllTopicListFromNameSrv, remoting.GetSystemTopicListFromNS, remoting.GetUnitTopicList,
		remoting.GetHasUnitSubTopicList, remoting.GetHasUnitSubUnunitTopicList:
		return "list the topics of one cluster at a time (GET_TOPICS_BY_CLUSTER, mqadmin topicList -c CLUSTER) or look routes up one topic at a time"
	case remoting.GetTopicsByCluster:
		return "look routes up one topic at a time (GET_ROUTEINFO_BY_TOPIC) or spread the topics over more clusters"
	case remoting.GetKVListByNamespace:
		return "read the namespace's keys one at a time (GET_KV_CONFIG)"
	}
	return "ask for less at a time"
}
