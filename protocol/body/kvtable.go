package body

import "github.com/raftns/raftns/protocol/fastjson"

// EncodeKVTable returns a KVTable body, {"table":{…}}, with keys in Java
// String order. It answers GET_KVLIST_BY_NAMESPACE and REGISTER_BROKER.
func EncodeKVTable(table map[string]string) []byte {
	dst := make([]byte, 0, 16+48*len(table))
	dst = append(dst, `{"table":{`...)
	for i, k := range fastjson.SortedKeys(table) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(AppendKey(dst, k, Default), table[k], Default)
	}
	return append(dst, '}', '}')
}

// DecodeKVTable reads a KVTable body. The result is never nil; null values
// are dropped.
func DecodeKVTable(b []byte) (map[string]string, error) {
	table := map[string]string{}
	err := decodeTop(b, func(l *lexer) error {
		return l.object(func(key string) error {
			if key != "table" {
				return atPath(key, l.skip())
			}
			t, err := l.stringMap()
			table = t
			return atPath(key, err)
		})
	})
	if err != nil {
		return nil, decodeFailed("KVTable", err)
	}
	return table, nil
}
