package state

import "maps"

// KV answers GET_KV_CONFIG.
func (s *State) KV(ns, key string) (string, bool) {
	v, ok := s.namespace(ns)[key]
	return v, ok
}

// KVList answers GET_KVLIST_BY_NAMESPACE with a copy of the namespace; an
// emptied namespace exists (true, empty map).
func (s *State) KVList(ns string) (map[string]string, bool) {
	t, ok := s.kv()[ns]
	if !ok {
		return nil, false
	}
	return maps.Clone(t.m), true
}

// KVTables returns a copy of the whole KV configuration, namespace -> key ->
// value, for kvConfig.json export.
func (s *State) KVTables() map[string]map[string]string {
	out := make(map[string]map[string]string, len(s.kv()))
	for ns, t := range s.kv() {
		out[ns] = maps.Clone(t.m)
	}
	return out
}
