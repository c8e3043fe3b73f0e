package state

import (
	"cmp"
	"maps"
	"slices"
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

// sameRegistration compares live entries, ignoring RegEpoch and
// RegisteredAtMillis, which only record when the entry was written.
func sameRegistration(a, b BrokerRegistration) bool {
	a.RegEpoch, a.RegisteredAtMillis = 0, 0
	b.RegEpoch, b.RegisteredAtMillis = 0, 0
	return a == b
}

// sortedKeys returns the keys of m in ascending order, never nil.
func sortedKeys[V any](m map[string]V) []string {
	keys := slices.AppendSeq(make([]string, 0, len(m)), maps.Keys(m))
	slices.Sort(keys)
	return keys
}

// sortedBrokerKeys returns the keys of m ordered by cluster, then address.
func sortedBrokerKeys[V any](m map[BrokerKey]V) []BrokerKey {
	keys := slices.AppendSeq(make([]BrokerKey, 0, len(m)), maps.Keys(m))
	slices.SortFunc(keys, compareBrokerKeys)
	return keys
}

// compareBrokerKeys orders broker keys by cluster, then address.
func compareBrokerKeys(a, b BrokerKey) int {
	return cmp.Or(cmp.Compare(a.Cluster, b.Cluster), cmp.Compare(a.Addr, b.Addr))
}

// minID returns the smallest broker id of a non-empty map.
func minID(addrs map[int64]string) int64 {
	return slices.Min(slices.Collect(maps.Keys(addrs)))
}

// sortedIDs returns the broker ids in ascending order.
func sortedIDs(addrs map[int64]string) []int64 {
	return slices.Sorted(maps.Keys(addrs))
}
