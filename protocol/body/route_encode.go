package body

import (
	"slices"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/fastjson"
)

// EncodeRoute returns the TopicRouteData JSON body of r (Java
// TopicRouteData.encode in Default mode, the standard-JSON encode in Standard
// mode). brokerDatas, filterServerTable and queueDatas are always present;
// orderTopicConf only when non-empty and topicQueueMappingByBroker only when
// non-nil. Element order of the two arrays is taken from r as it is.
func EncodeRoute(r *state.TopicRouteData, m Mode) []byte {
	return AppendRoute(make([]byte, 0, routeSizeHint(r)), r, m)
}

// EncodeTopicRouteData returns the REGISTER_TOPIC_IN_NAMESRV request body for
// r; a 5.x broker sends it in Default mode.
func EncodeTopicRouteData(r *state.TopicRouteData) []byte { return EncodeRoute(r, Default) }

// AppendRoute appends the body EncodeRoute returns to dst, so that a caller
// can reuse a buffer. A nil r is written as an empty route.
func AppendRoute(dst []byte, r *state.TopicRouteData, m Mode) []byte {
	if r == nil {
		r = &state.TopicRouteData{}
	}
	dst = append(dst, `{"brokerDatas":[`...)
	for i := range r.BrokerDatas {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendBrokerData(dst, &r.BrokerDatas[i], m)
	}
	dst = append(dst, `],"filterServerTable":`...)
	dst = appendStringListMap(dst, r.FilterServerTable, m)
	if r.OrderTopicConf != "" {
		dst = append(dst, `,"orderTopicConf":`...)
		dst = AppendString(dst, r.OrderTopicConf, m)
	}
	dst = append(dst, `,"queueDatas":[`...)
	for i := range r.QueueDatas {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendQueueData(dst, &r.QueueDatas[i], m)
	}
	dst = append(dst, ']')
	if r.TopicQueueMappingByBroker != nil {
		dst = append(dst, `,"topicQueueMappingByBroker":{`...)
		for i, k := range fastjson.SortedKeys(r.TopicQueueMappingByBroker) {
			if i > 0 {
				dst = append(dst, ',')
			}
			info := r.TopicQueueMappingByBroker[k]
			dst = appendMappingInfo(AppendKey(dst, k, m), &info, m)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// routeSizeHint estimates the encoded size so that EncodeRoute allocates once
// for typical routes.
func routeSizeHint(r *state.TopicRouteData) int {
	if r == nil {
		return 64
	}
	return 64 + len(r.OrderTopicConf) + 140*len(r.BrokerDatas) + 110*len(r.QueueDatas) +
		60*len(r.FilterServerTable) + 200*len(r.TopicQueueMappingByBroker)
}

// appendBrokerData writes a Java BrokerData as 5.x does: enableActingMaster
// always, zoneName when set, brokerAddrs never null.
func appendBrokerData(dst []byte, b *state.BrokerData, m Mode) []byte {
	dst = append(dst, `{"brokerAddrs":`...)
	dst = appendAddrMap(dst, b.BrokerAddrs, m)
	dst = append(dst, `,"brokerName":`...)
	dst = AppendString(dst, b.BrokerName, m)
	dst = append(dst, `,"cluster":`...)
	dst = AppendString(dst, b.Cluster, m)
	dst = append(dst, `,"enableActingMaster":`...)
	dst = fastjson.AppendBool(dst, b.EnableActingMaster)
	if b.ZoneName != "" {
		dst = append(dst, `,"zoneName":`...)
		dst = AppendString(dst, b.ZoneName, m)
	}
	return append(dst, '}')
}

// appendAddrMap writes a Map<Long,String>.
func appendAddrMap(dst []byte, addrs map[int64]string, m Mode) []byte {
	return appendSortedMap(dst, addrs, func(dst []byte, id int64, addr string) []byte {
		return AppendString(AppendNumberKey(dst, id, m), addr, m)
	})
}

// appendSortedMap writes a map with integer keys in ascending key order,
// which is both the MapSortField order and the order a small Java HashMap
// iterates; member writes one key and its value.
func appendSortedMap[K int32 | int64, V any](dst []byte, t map[K]V, member func(dst []byte, k K, v V) []byte) []byte {
	var arr [8]K // the usual map fits: no allocation
	keys := arr[:0]
	if len(t) > len(arr) {
		keys = make([]K, 0, len(t))
	}
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = member(dst, k, t[k])
	}
	return append(dst, '}')
}

func appendQueueData(dst []byte, q *state.QueueData, m Mode) []byte {
	dst = append(dst, `{"brokerName":`...)
	dst = AppendString(dst, q.BrokerName, m)
	dst = append(dst, `,"perm":`...)
	dst = fastjson.AppendInt(dst, q.Perm)
	dst = append(dst, `,"readQueueNums":`...)
	dst = fastjson.AppendInt(dst, q.ReadQueueNums)
	dst = append(dst, `,"topicSysFlag":`...)
	dst = fastjson.AppendInt(dst, q.TopicSysFlag)
	dst = append(dst, `,"writeQueueNums":`...)
	dst = fastjson.AppendInt(dst, q.WriteQueueNums)
	return append(dst, '}')
}

// appendStringListMap writes a Map<String,List<String>> with sorted keys; a
// nil list is written as [].
func appendStringListMap(dst []byte, t map[string][]string, m Mode) []byte {
	dst = append(dst, '{')
	for i, k := range fastjson.SortedKeys(t) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendStringList(AppendKey(dst, k, m), t[k], m)
	}
	return append(dst, '}')
}

func appendStringList(dst []byte, list []string, m Mode) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, s, m)
	}
	return append(dst, ']')
}

// appendMappingInfo writes a Java TopicQueueMappingInfo. Empty strings count
// as null and are omitted; a nil CurrIDMap is omitted, a non-nil one is
// written with its Integer keys in ascending order.
func appendMappingInfo(dst []byte, info *state.TopicQueueMappingInfo, m Mode) []byte {
	dst = append(dst, '{')
	if info.Bname != "" {
		dst = append(dst, `"bname":`...)
		dst = append(AppendString(dst, info.Bname, m), ',')
	}
	if info.CurrIDMap != nil {
		dst = append(dst, `"currIdMap":`...)
		dst = append(appendIDMap(dst, info.CurrIDMap, m), ',')
	}
	dst = append(dst, `"dirty":`...)
	dst = fastjson.AppendBool(dst, info.Dirty)
	dst = append(dst, `,"epoch":`...)
	dst = AppendLong(dst, info.Epoch, m)
	if info.Scope != "" {
		dst = append(dst, `,"scope":`...)
		dst = AppendString(dst, info.Scope, m)
	}
	if info.Topic != "" {
		dst = append(dst, `,"topic":`...)
		dst = AppendString(dst, info.Topic, m)
	}
	dst = append(dst, `,"totalQueues":`...)
	dst = fastjson.AppendInt(dst, info.TotalQueues)
	return append(dst, '}')
}

func appendIDMap(dst []byte, ids map[int32]int32, m Mode) []byte {
	return appendSortedMap(dst, ids, func(dst []byte, k, v int32) []byte {
		return fastjson.AppendInt(AppendNumberKey(dst, int64(k), m), v)
	})
}
