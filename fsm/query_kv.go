package fsm

import (
	"github.com/raftns/raftns/fsm/state"
)

// KV answers GET_KV_CONFIG.
func (f *FSM) KV(ns, key string) (string, bool) {
	return read2(f, func(s *state.State) (string, bool) { return s.KV(ns, key) })
}

// KVList answers GET_KVLIST_BY_NAMESPACE with a copy of the namespace; an
// emptied namespace exists (true, empty map).
func (f *FSM) KVList(ns string) (map[string]string, bool) {
	return read2(f, func(s *state.State) (map[string]string, bool) { return s.KVList(ns) })
}

// KVTables returns a copy of the whole KV configuration, namespace -> key ->
// value, for kvConfig.json export.
func (f *FSM) KVTables() map[string]map[string]string {
	return read(f, (*state.State).KVTables)
}
