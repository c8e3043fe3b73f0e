package body

import (
	"math"
	"strconv"

	"github.com/raftns/raftns/fsm/state"
)

// metadataScopeGlobal is the default TopicQueueMappingInfo.scope (Java
// MixAll.METADATA_SCOPE_GLOBAL).
const metadataScopeGlobal = "__global__"

// DecodeTopicRouteData reads a TopicRouteData body in either encoding (the
// REGISTER_TOPIC_IN_NAMESRV request body, or a GET_ROUTEINFO_BY_TOPIC answer
// read by our client). FilterServerTable is never nil; brokerAddrs maps are
// never nil; TopicQueueMappingByBroker stays nil when absent.
func DecodeTopicRouteData(b []byte) (*state.TopicRouteData, error) {
	r := &state.TopicRouteData{FilterServerTable: map[string][]string{}}
	err := decodeTop(b, func(l *lexer) error { return readRoute(l, r) })
	if err != nil {
		return nil, decodeFailed("TopicRouteData", err)
	}
	return r, nil
}

// decodeTop runs read on the single top-level value of b. An empty body and
// the literal null give ErrEmptyBody.
func decodeTop(b []byte, read func(l *lexer) error) error {
	l, err := newLexer(b)
	if err != nil {
		return err
	}
	if l.atEnd() {
		return ErrEmptyBody
	}
	if l.isNull() {
		if l.atEnd() {
			return ErrEmptyBody
		}
		return l.syntaxErr("unexpected data after null")
	}
	if err := read(l); err != nil {
		return err
	}
	return l.finish()
}

func readRoute(l *lexer, r *state.TopicRouteData) error {
	return l.object(func(key string) error {
		var err error
		switch key {
		case "brokerDatas":
			r.BrokerDatas, err = readList(l, readBrokerData)
		case "queueDatas":
			r.QueueDatas, err = readList(l, readQueueData)
		case "filterServerTable":
			if l.isNull() {
				break
			}
			err = l.object(func(addr string) error {
				list, err := l.stringList()
				if list != nil {
					r.FilterServerTable[addr] = list
				}
				return atPath(addr, err)
			})
		case "orderTopicConf":
			r.OrderTopicConf, err = l.str()
		case "topicQueueMappingByBroker":
			r.TopicQueueMappingByBroker, err = readMappingInfoMap(l)
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
}

// readList reads an array of objects; null gives nil.
func readList[T any](l *lexer, read func(*lexer) (T, error)) ([]T, error) {
	if l.isNull() {
		return nil, nil
	}
	out := []T{}
	err := l.array(func(i int) error {
		v, err := read(l)
		out = append(out, v)
		return atPath("["+strconv.Itoa(i)+"]", err)
	})
	return out, err
}

// readBrokerData reads a Java BrokerData; a missing or null brokerAddrs
// gives an empty map.
func readBrokerData(l *lexer) (state.BrokerData, error) {
	bd := state.BrokerData{BrokerAddrs: map[int64]string{}}
	err := l.object(func(key string) error {
		var err error
		switch key {
		case "cluster":
			bd.Cluster, err = l.str()
		case "brokerName":
			bd.BrokerName, err = l.str()
		case "brokerAddrs":
			err = readAddrMap(l, bd.BrokerAddrs)
		case "enableActingMaster":
			bd.EnableActingMaster, err = l.boolv(false)
		case "zoneName":
			bd.ZoneName, err = l.str()
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
	return bd, err
}

// readAddrMap reads a Map<Long,String> with quoted or bare keys into addrs.
func readAddrMap(l *lexer, addrs map[int64]string) error {
	if l.isNull() {
		return nil
	}
	return l.object(func(key string) error {
		id, err := parseIntKey(key, math.MinInt64, math.MaxInt64)
		if err != nil {
			return atPath(key, err)
		}
		addr, ok, err := l.optString()
		if ok {
			addrs[id] = addr
		}
		return atPath(key, err)
	})
}

func readQueueData(l *lexer) (state.QueueData, error) {
	var q state.QueueData
	err := l.object(func(key string) error {
		var err error
		switch key {
		case "brokerName":
			q.BrokerName, err = l.str()
		case "readQueueNums":
			q.ReadQueueNums, err = l.int32v(0)
		case "writeQueueNums":
			q.WriteQueueNums, err = l.int32v(0)
		case "perm":
			q.Perm, err = l.int32v(0)
		case "topicSysFlag":
			q.TopicSysFlag, err = l.int32v(0)
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
	return q, err
}

// readMappingInfoMap reads a Map<String,TopicQueueMappingInfo>; null gives
// nil.
func readMappingInfoMap(l *lexer) (map[string]state.TopicQueueMappingInfo, error) {
	if l.isNull() {
		return nil, nil
	}
	out := map[string]state.TopicQueueMappingInfo{}
	err := l.object(func(key string) error {
		info, err := readMappingInfo(l)
		out[key] = info
		return atPath(key, err)
	})
	return out, err
}

// readMappingInfo reads a Java TopicQueueMappingInfo with its field
// defaults: scope "__global__" and an empty currIdMap when absent.
func readMappingInfo(l *lexer) (state.TopicQueueMappingInfo, error) {
	info := state.TopicQueueMappingInfo{Scope: metadataScopeGlobal, CurrIDMap: map[int32]int32{}}
	err := l.object(func(key string) error {
		var err error
		switch key {
		case "topic":
			info.Topic, err = l.str()
		case "scope":
			info.Scope, err = l.str()
		case "bname":
			info.Bname, err = l.str()
		case "totalQueues":
			info.TotalQueues, err = l.int32v(0)
		case "epoch":
			info.Epoch, err = l.int64v(0)
		case "dirty":
			info.Dirty, err = l.boolv(false)
		case "currIdMap":
			info.CurrIDMap, err = readIDMap(l)
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
	return info, err
}

// readIDMap reads a Map<Integer,Integer>; null gives nil.
func readIDMap(l *lexer) (map[int32]int32, error) {
	if l.isNull() {
		return nil, nil
	}
	out := map[int32]int32{}
	err := l.object(func(key string) error {
		k, err := parseIntKey(key, math.MinInt32, math.MaxInt32)
		if err != nil {
			return atPath(key, err)
		}
		v, ok, err := l.optInt(math.MinInt32, math.MaxInt32)
		if ok {
			out[int32(k)] = int32(v)
		}
		return atPath(key, err)
	})
	return out, err
}
