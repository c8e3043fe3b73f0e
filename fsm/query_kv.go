package fsm

import "maps"

// KV answers GET_KV_CONFIG.
func (f *FSM) KV(ns, key string) (string, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	v, ok := f.st.namespace(ns)[key]
	return v, ok
}

// KVList answers GET_KVLIST_BY_NAMESPACE with a copy of the namespace; an
// emptied namespace exists (true, empty map).
func (f *FSM) KVList(ns string) (map[string]string, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	t, ok := f.st.kv[ns]
	if !ok {
		return nil, false
	}
	return maps.Clone(t.m), true
}

// KVTables returns a copy of the whole KV configuration, namespace -> key ->
// value, for kvConfig.json export.
func (f *FSM) KVTables() map[string]map[string]string {
	return read(f, func(s *state) map[string]map[string]string {
		out := make(map[string]map[string]string, len(s.kv))
		for ns, t := range s.kv {
			out[ns] = maps.Clone(t.m)
		}
		return out
	})
}
