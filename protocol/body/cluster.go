package body

import (
	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/fastjson"
)

// EncodeClusterInfo returns the GET_BROKER_CLUSTER_INFO body (Java
// ClusterInfo), always in Default mode so brokerAddrs keys are bare numbers
// for every client version. Map keys are sorted for determinism; the broker
// name lists are written in the order given. A nil ci is the empty state.
func EncodeClusterInfo(ci *state.ClusterInfo) []byte {
	if ci == nil {
		ci = &state.ClusterInfo{}
	}
	dst := make([]byte, 0, 64+160*len(ci.BrokerAddrTable)+40*len(ci.ClusterAddrTable))
	dst = append(dst, `{"brokerAddrTable":{`...)
	for i, name := range fastjson.SortedKeys(ci.BrokerAddrTable) {
		if i > 0 {
			dst = append(dst, ',')
		}
		bd := ci.BrokerAddrTable[name]
		dst = appendBrokerData(AppendKey(dst, name, Default), &bd, Default)
	}
	dst = append(dst, `},"clusterAddrTable":`...)
	dst = appendStringListMap(dst, ci.ClusterAddrTable, Default)
	return append(dst, '}')
}

// DecodeClusterInfo reads a ClusterInfo body. Both maps are non-nil.
func DecodeClusterInfo(b []byte) (*state.ClusterInfo, error) {
	ci := &state.ClusterInfo{
		BrokerAddrTable:  map[string]state.BrokerData{},
		ClusterAddrTable: map[string][]string{},
	}
	err := decodeTop(b, func(l *lexer) error {
		return l.object(func(key string) error {
			var err error
			switch {
			case key != "brokerAddrTable" && key != "clusterAddrTable":
				err = l.skip()
			case l.isNull():
			case key == "brokerAddrTable":
				err = l.object(func(name string) error {
					bd, err := readBrokerData(l)
					ci.BrokerAddrTable[name] = bd
					return atPath(name, err)
				})
			default:
				err = l.object(func(cluster string) error {
					names, err := l.stringList()
					if names != nil {
						ci.ClusterAddrTable[cluster] = names
					}
					return atPath(cluster, err)
				})
			}
			return atPath(key, err)
		})
	})
	if err != nil {
		return nil, decodeFailed("ClusterInfo", err)
	}
	return ci, nil
}
