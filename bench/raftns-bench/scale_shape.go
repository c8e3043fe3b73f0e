package main

import (
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/raftns/raftns/client/nsclient"
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/remoting"
)

// scaleShape is the fleet of the scale scenario: Brokers brokers in Groups
// broker groups (a master and its slaves, Brokers/Groups each), Topics
// distinct topics, each placed on Placement of the groups.
type scaleShape struct {
	Brokers   int `json:"brokers"`
	Groups    int `json:"groups"`
	Topics    int `json:"topics"`
	Placement int `json:"placement"`
	Queues    int `json:"queues"`
}

func (s scaleShape) String() string {
	return fmt.Sprintf("%d brokers in %d groups, %d topics on %d groups each", s.Brokers, s.Groups, s.Topics, s.Placement)
}

func (s scaleShape) check() error {
	switch {
	case s.Groups < 1 || s.Brokers < s.Groups || s.Brokers%s.Groups != 0:
		return fmt.Errorf("%w: -brokers must be a positive multiple of -groups", errUsage)
	case s.Placement < 1 || s.Placement > s.Groups:
		return fmt.Errorf("%w: -placement must be between 1 and -groups", errUsage)
	case s.Topics < s.Groups/s.Placement:
		return fmt.Errorf("%w: -topics must be at least -groups / -placement, so that every group has a topic", errUsage)
	case s.Queues < 1:
		return fmt.Errorf("%w: -queues must be at least 1", errUsage)
	}
	return nil
}

// replicas is the number of brokers of one group.
func (s scaleShape) replicas() int { return s.Brokers / s.Groups }

// queueDatas is the number of (topic, group) pairs, the route table's size.
func (s scaleShape) queueDatas() int { return s.Topics * s.Placement }

// groupTopics returns the topics group g carries. Topic t is on the groups
// (t + k*stride) mod Groups for k < Placement, stride = Groups/Placement:
// every group carries about Topics*Placement/Groups topics, and two groups
// share only some of theirs.
func (s scaleShape) groupTopics(g int) []int {
	stride := s.Groups / s.Placement
	var out []int
	for k := range s.Placement {
		start := ((g-k*stride)%s.Groups + s.Groups) % s.Groups
		for t := start; t < s.Topics; t += s.Groups {
			out = append(out, t)
		}
	}
	return out
}

// scaleBrokers is the fleet's registrations and their encoded requests, the
// requests precomputed so that sending one costs the fake broker a frame
// header. Broker b is replica b mod replicas of group b / replicas; the
// replicas of a group share one encoded body.
type scaleBrokers struct {
	shape  scaleShape
	topics []string
	regs   []*nsclient.Registration
}

// newScaleBrokers names the topics and brokers of shape (n keeps them apart
// from other runs) and builds each group's topic configs.
func newScaleBrokers(n naming, shape scaleShape) *scaleBrokers {
	sb := &scaleBrokers{shape: shape, topics: make([]string, shape.Topics)}
	for t := range sb.topics {
		sb.topics[t] = fmt.Sprintf("scale-%s-%06d", n.tag, t)
	}
	for g := range shape.Groups {
		idx := shape.groupTopics(g)
		names := make([]string, len(idx))
		for i, t := range idx {
			names[i] = sb.topics[t]
		}
		configs := topicConfigs(names, int32(shape.Queues))
		for r := range shape.replicas() {
			reg := n.broker("scale", g, configs)
			reg.BrokerID = int64(r)
			sb.regs = append(sb.regs, reg)
		}
	}
	return sb
}

// requests encodes every broker's REGISTER_BROKER with a DataVersion of
// version (a broker's start time): one body per group, shared by its
// replicas.
func (sb *scaleBrokers) requests(c *nsclient.Client, version time.Time) ([]*remoting.Command, error) {
	out := make([]*remoting.Command, len(sb.regs))
	reps := sb.shape.replicas()
	for b, reg := range sb.regs {
		reg.Body.DataVersion = state.DataVersion{Timestamp: version.UnixMilli(), Counter: 1}
		if b%reps != 0 {
			out[b] = replicaRequest(out[b-b%reps], reg)
			continue
		}
		req, err := c.RegisterRequest(reg)
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", reg.BrokerName, err)
		}
		out[b] = req
	}
	return out, nil
}

// replicaRequest is master's request for another broker of its group:
// the same body, that broker's address and id.
func replicaRequest(master *remoting.Command, reg *nsclient.Registration) *remoting.Command {
	req := *master
	req.ExtFields = maps.Clone(master.ExtFields)
	req.ExtFields["brokerAddr"], req.ExtFields["haServerAddr"] = reg.BrokerAddr, reg.HaServerAddr
	req.ExtFields["brokerId"] = strconv.FormatInt(reg.BrokerID, 10)
	return &req
}

// unregisterRequest is broker b's UNREGISTER_BROKER, as a broker sends it
// when it shuts down.
func (sb *scaleBrokers) unregisterRequest(b int) *remoting.Command {
	reg := sb.regs[b]
	return &remoting.Command{Code: remoting.UnregisterBroker, Language: "JAVA", Version: nsclient.Version5,
		ExtFields: map[string]string{"clusterName": reg.ClusterName, "brokerName": reg.BrokerName,
			"brokerAddr": reg.BrokerAddr, "brokerId": strconv.FormatInt(reg.BrokerID, 10)}}
}

// present counts the fleet's brokers an answer to GET_BROKER_CLUSTER_INFO
// lists at their own address and id.
func (sb *scaleBrokers) present(ci *state.ClusterInfo) int {
	n := 0
	for _, reg := range sb.regs {
		if bd, ok := ci.BrokerAddrTable[reg.BrokerName]; ok && bd.BrokerAddrs[reg.BrokerID] == reg.BrokerAddr {
			n++
		}
	}
	return n
}
