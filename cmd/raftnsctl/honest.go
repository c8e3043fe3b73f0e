package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/protocol/remoting"
)

// topicPresent reports whether the name server has queues of topic, on
// cluster's brokers when cluster is not empty. The name server answers a
// delete of a missing topic with success, as the reference does, so
// delete-topic asks first to say truthfully what it did.
func (n *nameServer) topicPresent(ctx context.Context, topic, cluster string) (bool, error) {
	route, err := n.c.GetRoute(ctx, n.addr, topic)
	var re *nsclient.ResponseError
	if errors.As(err, &re) && re.Code == remoting.TopicNotExist {
		return false, nil
	}
	if err != nil {
		return false, n.fail("delete-topic "+topic, err)
	}
	if cluster == "" {
		return len(route.QueueDatas) > 0, nil
	}
	inCluster := map[string]bool{}
	for _, b := range route.BrokerDatas {
		if b.Cluster == cluster {
			inCluster[b.BrokerName] = true
		}
	}
	for _, q := range route.QueueDatas {
		if inCluster[q.BrokerName] {
			return true, nil
		}
	}
	return false, nil
}

// brokerKnown reports whether broker group name is registered with the
// name server; a write-permission change of an unknown group changes
// nothing, and the name server answers it with zero topics as it would a
// known group without topics.
func (n *nameServer) brokerKnown(ctx context.Context, name, what string) error {
	info, err := n.c.GetClusterInfo(ctx, n.addr)
	if err != nil {
		return n.fail(what, err)
	}
	if _, ok := info.BrokerAddrTable[name]; !ok {
		return fmt.Errorf("%w: %s: broker group %s is not registered with name server %s: nothing changed",
			errNotFound, what, name, n.addr)
	}
	return nil
}
