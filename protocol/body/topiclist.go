package body

import "github.com/raftns/raftns/fsm/state"

// EncodeTopicList returns a TopicList body: {"brokerAddr":…,"topicList":[…]}
// with brokerAddr omitted when empty and topics in the order given.
func EncodeTopicList(tl *state.TopicList) []byte {
	if tl == nil {
		tl = &state.TopicList{}
	}
	dst := make([]byte, 0, 32+len(tl.BrokerAddr)+24*len(tl.Topics))
	dst = append(dst, '{')
	if tl.BrokerAddr != "" {
		dst = append(dst, `"brokerAddr":`...)
		dst = append(AppendString(dst, tl.BrokerAddr, Default), ',')
	}
	dst = append(dst, `"topicList":`...)
	dst = appendStringList(dst, tl.Topics, Default)
	return append(dst, '}')
}

// DecodeTopicList reads a TopicList body. Topics is nil only when topicList
// is absent or null.
func DecodeTopicList(b []byte) (*state.TopicList, error) {
	tl := &state.TopicList{}
	err := decodeTop(b, func(l *lexer) error {
		return l.object(func(key string) error {
			var err error
			switch key {
			case "topicList":
				tl.Topics, err = l.stringList()
			case "brokerAddr":
				tl.BrokerAddr, err = l.str()
			default:
				err = l.skip()
			}
			return atPath(key, err)
		})
	})
	if err != nil {
		return nil, decodeFailed("TopicList", err)
	}
	return tl, nil
}
