package fsm

import (
	"maps"
	"slices"
	"sort"
)

// cloneBrokerData returns a deep copy; BrokerAddrs is never nil.
func cloneBrokerData(bd BrokerData) BrokerData {
	bd.BrokerAddrs = cloneAddrs(bd.BrokerAddrs)
	return bd
}

func cloneAddrs(m map[int64]string) map[int64]string {
	out := make(map[int64]string, len(m))
	maps.Copy(out, m)
	return out
}

// cloneMapping returns a deep copy of a mapping info.
func cloneMapping(mi TopicQueueMappingInfo) TopicQueueMappingInfo {
	if mi.CurrIDMap != nil {
		mi.CurrIDMap = maps.Clone(mi.CurrIDMap)
	}
	return mi
}

func equalBrokerData(a, b BrokerData) bool {
	return a.Cluster == b.Cluster && a.BrokerName == b.BrokerName &&
		a.EnableActingMaster == b.EnableActingMaster && a.ZoneName == b.ZoneName &&
		maps.Equal(a.BrokerAddrs, b.BrokerAddrs)
}

// equalMapping compares mapping infos; a nil and an empty CurrIDMap are
// different, as they are on the wire.
func equalMapping(a, b TopicQueueMappingInfo) bool {
	if (a.CurrIDMap == nil) != (b.CurrIDMap == nil) {
		return false
	}
	return a.Topic == b.Topic && a.Scope == b.Scope && a.TotalQueues == b.TotalQueues &&
		a.Bname == b.Bname && a.Epoch == b.Epoch && a.Dirty == b.Dirty &&
		maps.Equal(a.CurrIDMap, b.CurrIDMap)
}

// sameRegistration compares live entries, ignoring RegEpoch and
// RegisteredAtMillis, which only record when the entry was written.
func sameRegistration(a, b BrokerRegistration) bool {
	a.RegEpoch, a.RegisteredAtMillis = 0, 0
	b.RegEpoch, b.RegisteredAtMillis = 0, 0
	return a == b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// minID returns the smallest broker id of a non-empty map.
func minID(addrs map[int64]string) int64 {
	return slices.Min(slices.Collect(maps.Keys(addrs)))
}

// sortedIDs returns the broker ids in ascending order.
func sortedIDs(addrs map[int64]string) []int64 {
	return slices.Sorted(maps.Keys(addrs))
}

func lessKey(a, b BrokerKey) bool {
	if a.Cluster != b.Cluster {
		return a.Cluster < b.Cluster
	}
	return a.Addr < b.Addr
}
