package fsm

import (
	"fmt"
	"github.com/raftns/raftns/fsm/state"
	"math/rand"
)

// A small universe so random commands hit the same brokers and topics.
var (
	rndClusters = []string{"c1", "c2"}
	rndNames    = []string{"a", "b", "c"}
	rndAddrs    = []string{"10.0.0.1:1", "10.0.0.2:1", "10.0.0.3:1", "10.0.0.4:1"}
	rndTopics   = []string{"t1", "t2", "t3", "t4", "t5"}
)

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.Intn(len(xs))] }

// randomRegister builds a registration over the universe.
func randomRegister(rng *rand.Rand, stamp uint64) *state.RegisterBroker {
	c := &state.RegisterBroker{
		ClusterName: pick(rng, rndClusters), BrokerAddr: pick(rng, rndAddrs), BrokerName: pick(rng, rndNames),
		BrokerID: int64(rng.Intn(3)), HaServerAddr: pick(rng, []string{"", "ha1", "ha2"}),
		HeartbeatTimeoutMillis: pick(rng, []int64{0, 0, 10000, 120000}),
		HasEnableActingMaster:  rng.Intn(4) != 0, EnableActingMaster: rng.Intn(2) == 0,
		ZoneName:            pick(rng, []string{"", "", "z1"}),
		DataVersion:         state.DataVersion{Timestamp: int64(rng.Intn(2)), Counter: int64(rng.Intn(3)), StateVersion: int64(rng.Intn(3))},
		HasFilterServerList: rng.Intn(3) != 0, StampMillis: int64(stamp),
	}
	for i := rng.Intn(4); i > 0; i-- {
		c.TopicConfigs = append(c.TopicConfigs, state.TopicConfig{TopicName: pick(rng, rndTopics),
			ReadQueueNums: int32(rng.Intn(2) + 1), WriteQueueNums: 4, Perm: pick(rng, []int32{2, 4, 6, 7}),
			TopicSysFlag: int32(rng.Intn(4))})
	}
	for i := rng.Intn(3); i > 0; i-- {
		c.FilterServerList = append(c.FilterServerList, pick(rng, []string{"f1", "f2"}))
	}
	if rng.Intn(4) == 0 {
		c.MappingInfos = []state.TopicQueueMappingInfo{{Topic: pick(rng, rndTopics), Bname: c.BrokerName,
			Epoch: int64(rng.Intn(2)), CurrIDMap: map[int32]int32{0: int32(rng.Intn(2))}}}
	}
	return c
}

// randomCommand returns any command over the universe; index seeds epochs.
func randomCommand(rng *rand.Rand, index uint64) (CommandType, any) {
	key := state.BrokerKey{Cluster: pick(rng, rndClusters), Addr: pick(rng, rndAddrs)}
	switch n := rng.Intn(20); {
	case n < 9:
		return RegisterBrokerType, randomRegister(rng, index)
	case n < 11:
		return UnregisterBrokerType, &state.UnregisterBroker{ClusterName: key.Cluster, BrokerAddr: key.Addr,
			BrokerName: pick(rng, rndNames), BrokerID: int64(rng.Intn(3))}
	case n < 12:
		return ExpireBrokersType, &state.ExpireBrokers{Reason: "timeout",
			Brokers: []state.ExpiredBroker{{Key: key, RegEpoch: uint64(rng.Intn(int(index) + 1))}}}
	case n < 13:
		return WipeWritePermType, &state.WipeWritePerm{BrokerName: pick(rng, rndNames)}
	case n < 14:
		return AddWritePermType, &state.AddWritePerm{BrokerName: pick(rng, rndNames)}
	case n < 15:
		return DeleteTopicType, &state.DeleteTopic{Topic: pick(rng, rndTopics), ClusterName: pick(rng, append(rndClusters, ""))}
	case n < 16:
		return RegisterTopicType, &state.RegisterTopic{Topic: pick(rng, rndTopics),
			QueueDatas: []state.QueueData{{BrokerName: pick(rng, rndNames), Perm: 6, ReadQueueNums: 1}}}
	case n < 17:
		return PutKVType, &state.PutKV{Namespace: pick(rng, []string{state.NamespaceOrderTopicConfig, "ns"}),
			Key: pick(rng, rndTopics), Value: fmt.Sprint(rng.Intn(3)), HasValue: rng.Intn(4) != 0}
	case n < 18:
		return DeleteKVType, &state.DeleteKV{Namespace: pick(rng, []string{state.NamespaceOrderTopicConfig, "ns"}), Key: pick(rng, rndTopics)}
	case n < 19:
		return SetMemberType, &state.SetMember{Member: state.Member{ID: pick(rng, []string{"n1", "n2"}), ClientAddr: pick(rng, rndAddrs)}}
	}
	return RemoveMemberType, &state.RemoveMember{ID: pick(rng, []string{"n1", "n2"})}
}
