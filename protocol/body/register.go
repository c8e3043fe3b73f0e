package body

import (
	"fmt"

	"github.com/raftns/raftns/fsm/state"
	"github.com/raftns/raftns/protocol/fastjson"
)

// MQVersion ordinals that change the body formats (Java MQVersion.Version).
const (
	// VersionRegisterBrokerBody (V3_0_11) is the first request version whose
	// REGISTER_BROKER body is a RegisterBrokerBody; older ones send a bare
	// TopicConfigSerializeWrapper.
	VersionRegisterBrokerBody int32 = 37
	// VersionStandardRoute (V4_9_4) is the first client version that gets
	// route bodies in Standard mode.
	VersionStandardRoute int32 = 401
	// VersionMappingSection (V5_0_0) is the first broker version whose
	// compressed body carries the topic-queue-mapping section, and whose
	// plain body has the 5.x wrapper shape.
	VersionMappingSection int32 = 413
)

// RouteMode returns the route body mode for a GET_ROUTEINFO_BY_TOPIC request
// (Java ClientRequestProcessor.getRouteInfoByTopic): Standard for request
// version ≥ 401 or acceptStandardJsonOnly=true, Default otherwise.
func RouteMode(requestVersion int32, acceptStandardJSONOnly bool) Mode {
	if acceptStandardJSONOnly || requestVersion >= VersionStandardRoute {
		return Standard
	}
	return Default
}

// RegisterBody is a decoded REGISTER_BROKER body (Java RegisterBrokerBody or,
// below version 37, TopicConfigSerializeWrapper). Empty lists are nil.
type RegisterBody struct {
	DataVersion state.DataVersion
	// TopicConfigs in the order of the body; each is keyed by its TopicName.
	TopicConfigs []state.TopicConfig
	// HasFilterServerList is false when the body carries no list (legacy
	// body, null list, or no body at all): the filter table stays untouched.
	HasFilterServerList bool
	FilterServerList    []string
	// MappingInfos are the static-topic mappings of a 5.x broker; each is
	// keyed by its Topic.
	MappingInfos []state.TopicQueueMappingInfo
}

// topicFilterSingleTag is the TopicConfig.topicFilterType RaftNS writes; the
// name server does not keep the real one.
const topicFilterSingleTag = "SINGLE_TAG"

// EncodeRegisterBody returns the REGISTER_BROKER body a broker of version
// brokerVersion would send for b: the legacy TopicConfigSerializeWrapper
// below version 37; otherwise a RegisterBrokerBody, as plain JSON (5.x shape
// with stateVersion, attributes and the mapping maps from version 413, the
// 4.x shape below) or, when compressed, the zlib binary form. Without
// HasFilterServerList the list is written as null in both forms. It fails for
// a nameless or duplicate topic, a topic name with a space in compressed
// form, mapping infos below version 413, or compressed below version 37.
func EncodeRegisterBody(b *RegisterBody, compressed bool, brokerVersion int32) ([]byte, error) {
	if b == nil {
		b = &RegisterBody{}
	}
	if err := checkRegisterBody(b, compressed, brokerVersion); err != nil {
		return nil, fmt.Errorf("body: encode RegisterBrokerBody: %w", err)
	}
	v5 := brokerVersion >= VersionMappingSection
	switch {
	case compressed:
		return encodeCompressed(b, v5)
	case brokerVersion < VersionRegisterBrokerBody:
		return appendWrapper(nil, b, false), nil
	}
	dst := make([]byte, 0, 256+200*len(b.TopicConfigs))
	dst = append(dst, '{')
	dst = append(dst, `"filterServerList":`...)
	if b.HasFilterServerList {
		dst = appendStringList(dst, b.FilterServerList, Default)
	} else {
		// fastjson would omit a null list, which Java reads back as its
		// default empty list; an explicit null keeps "no list" intact.
		dst = append(dst, "null"...)
	}
	dst = append(dst, ',')
	dst = append(dst, `"topicConfigSerializeWrapper":`...)
	dst = appendWrapper(dst, b, v5)
	return append(dst, '}'), nil
}

func checkRegisterBody(b *RegisterBody, compressed bool, v int32) error {
	switch {
	case v < 0:
		return fmt.Errorf("%w: negative broker version %d", ErrInvalid, v)
	case compressed && v < VersionRegisterBrokerBody:
		return fmt.Errorf("%w: compressed form needs broker version >= %d, got %d", ErrInvalid, VersionRegisterBrokerBody, v)
	case len(b.MappingInfos) > 0 && v < VersionMappingSection:
		return fmt.Errorf("%w: mapping infos need broker version >= %d, got %d", ErrInvalid, VersionMappingSection, v)
	}
	seen := make(map[string]bool, len(b.TopicConfigs))
	for _, tc := range b.TopicConfigs {
		if err := checkName(seen, tc.TopicName, "topic config without topicName", "duplicate topic"); err != nil {
			return err
		}
		if compressed && containsSpace(tc.TopicName) {
			return fmt.Errorf("%w: topic %q has a space, which the compressed form cannot carry", ErrInvalid, tc.TopicName)
		}
	}
	clear(seen)
	for _, info := range b.MappingInfos {
		if err := checkName(seen, info.Topic, "mapping info without topic", "duplicate mapping info for topic"); err != nil {
			return err
		}
	}
	return nil
}

// checkName refuses an empty name (saying missing) and a name already in
// seen (saying repeated), and adds name to seen.
func checkName(seen map[string]bool, name, missing, repeated string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: %s", ErrInvalid, missing)
	case seen[name]:
		return fmt.Errorf("%w: %s %q", ErrInvalid, repeated, name)
	}
	seen[name] = true
	return nil
}

func containsSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return true
		}
	}
	return false
}

// appendWrapper writes TopicConfigSerializeWrapper (4.x) or
// TopicConfigAndMappingSerializeWrapper (5.x). The 5.x mappingDataVersion is
// not kept by the name server; it is written as counter 0 with the topic
// DataVersion's timestamp.
func appendWrapper(dst []byte, b *RegisterBody, v5 bool) []byte {
	dst = append(dst, `{"dataVersion":`...)
	dst = appendDataVersion(dst, b.DataVersion, v5)
	if v5 {
		dst = append(dst, `,"mappingDataVersion":`...)
		dst = appendDataVersion(dst, state.DataVersion{Timestamp: b.DataVersion.Timestamp}, true)
	}
	dst = append(dst, `,"topicConfigTable":`...)
	dst = appendObject(dst, b.TopicConfigs, func(dst []byte, tc *state.TopicConfig) []byte {
		return appendTopicConfig(AppendKey(dst, tc.TopicName, Default), tc, v5)
	})
	if v5 {
		dst = append(dst, `,"topicQueueMappingDetailMap":{},"topicQueueMappingInfoMap":`...)
		dst = appendObject(dst, b.MappingInfos, func(dst []byte, info *state.TopicQueueMappingInfo) []byte {
			return appendMappingInfo(AppendKey(dst, info.Topic, Default), info, Default)
		})
	}
	return append(dst, '}')
}

// appendTopicConfig writes a Java TopicConfig; 5.x adds "attributes":{}.
func appendTopicConfig(dst []byte, tc *state.TopicConfig, v5 bool) []byte {
	dst = append(dst, '{')
	if v5 {
		dst = append(dst, `"attributes":{},`...)
	}
	dst = append(dst, `"order":false,"perm":`...)
	dst = fastjson.AppendInt(dst, tc.Perm)
	dst = append(dst, `,"readQueueNums":`...)
	dst = fastjson.AppendInt(dst, tc.ReadQueueNums)
	dst = append(dst, `,"topicFilterType":"`+topicFilterSingleTag+`","topicName":`...)
	dst = AppendString(dst, tc.TopicName, Default)
	dst = append(dst, `,"topicSysFlag":`...)
	dst = fastjson.AppendInt(dst, tc.TopicSysFlag)
	dst = append(dst, `,"writeQueueNums":`...)
	dst = fastjson.AppendInt(dst, tc.WriteQueueNums)
	return append(dst, '}')
}
