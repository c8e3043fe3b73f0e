package state

import (
	"fmt"
	"maps"
)

// The KV configuration is written as a record per namespace, each followed
// by a record per key.
const (
	recKVNamespace uint8 = 8 // kvNamespaceRecord, before its keys
	recKV          uint8 = 9 // kvRecord
)

type kvNamespaceRecord struct{ Namespace string }

type kvRecord struct{ Namespace, Key, Value string }

// kvTables is KVConfigManager.configTable: namespace -> key -> value.
type kvTables struct{ m map[string]*kvTable }

var kvSlot = slotOf[*kvTables]()

// kv is the KV configuration of s, by namespace.
func (s *State) kv() map[string]*kvTable { return s.tables[kvSlot].(*kvTables).m }

func newKV() table { return &kvTables{m: map[string]*kvTable{}} }

func (t *kvTables) thaw() table { return &kvTables{m: maps.Clone(t.m)} }

func (t *kvTables) walk(emit emitFunc) error {
	for _, ns := range sortedKeys(t.m) {
		if err := emit(recKVNamespace, &kvNamespaceRecord{Namespace: ns}); err != nil {
			return err
		}
		keys := t.m[ns].m
		for _, k := range sortedKeys(keys) {
			if err := emit(recKV, &kvRecord{Namespace: ns, Key: k, Value: keys[k]}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *kvTables) restore(rs *restorer, typ uint8, payload []byte) error {
	if typ == recKVNamespace {
		r, err := decode[kvNamespaceRecord](payload)
		if err != nil {
			return err
		}
		if _, ok := t.m[r.Namespace]; ok {
			return duplicate("namespace", r.Namespace)
		}
		writable(rs.s, t.m, r.Namespace, true)
		return nil
	}
	r, err := decode[kvRecord](payload)
	if err != nil {
		return err
	}
	keys, ok := t.m[r.Namespace]
	if !ok {
		return fmt.Errorf("key %q of undeclared namespace %q", r.Key, r.Namespace)
	}
	if _, ok := keys.m[r.Key]; ok {
		return duplicate("key", r.Namespace+"/"+r.Key)
	}
	keys.m[r.Key] = r.Value
	return nil
}
