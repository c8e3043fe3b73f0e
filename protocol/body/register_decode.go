package body

import (
	"fmt"

	"github.com/raftns/raftns/fsm/state"
)

// Java TopicConfig field defaults for properties a body leaves out.
const (
	defaultQueueNums int32 = 16
	defaultPerm            = state.PermRead | state.PermWrite
)

// DecodeRegisterBody reads a REGISTER_BROKER body as the Java NameServer's
// DefaultRequestProcessor.registerBroker does for a request of version
// requestVersion: below 37 a bare TopicConfigSerializeWrapper (no filter
// list; compressed is ignored, as Java ignores it there); otherwise a
// RegisterBrokerBody, as zlib binary when compressed, else plain JSON. An
// empty body is an empty table with DataVersion {0,0,0} and no filter list.
//
// Missing TopicConfig properties take the Java defaults (16 read and write
// queues, perm 6); a missing DataVersion timestamp reads as 0, where Java
// would use the receiving time. The topic key is TopicConfig.topicName; a
// config without one is an error. TopicConfigs and MappingInfos have unique
// names: a repeated map key or topicName keeps its first position and its
// last value, which is what Java's map and per-topic registration leave.
// A compressed body at version ≥ 413 that ends after the filter-server list
// is accepted without mappings (R5 fails it; see decodeCompressed).
func DecodeRegisterBody(b []byte, compressed bool, requestVersion int32) (*RegisterBody, error) {
	return DecodeRegisterBodyLimited(b, compressed, requestVersion, Inflation{})
}

// DecodeRegisterBodyLimited is DecodeRegisterBody with the inflating of a
// compressed body bounded by lim.
func DecodeRegisterBodyLimited(b []byte, compressed bool, requestVersion int32, lim Inflation) (*RegisterBody, error) {
	var (
		body *RegisterBody
		err  error
	)
	switch {
	case requestVersion < 0:
		// Java MQVersion.value2Version throws for negative ordinals.
		err = fmt.Errorf("%w: negative request version %d", ErrInvalid, requestVersion)
	case len(b) == 0:
		body = &RegisterBody{}
	case requestVersion < VersionRegisterBrokerBody:
		body, err = decodeLegacy(b)
	case compressed:
		body, err = decodeCompressed(b, requestVersion, lim)
	default:
		body, err = decodePlain(b)
	}
	if err != nil {
		return nil, decodeFailed("RegisterBrokerBody", err)
	}
	return body, nil
}

// decodeLegacy reads the version < 37 body, a bare wrapper.
func decodeLegacy(b []byte) (*RegisterBody, error) {
	body := &RegisterBody{}
	err := decodeTop(b, func(l *lexer) error { return readWrapper(l, body) })
	return body, err
}

// decodePlain reads a plain JSON RegisterBrokerBody. A missing
// filterServerList is Java's default empty list; an explicit null leaves the
// filter table untouched.
func decodePlain(b []byte) (*RegisterBody, error) {
	body := &RegisterBody{HasFilterServerList: true}
	err := decodeTop(b, func(l *lexer) error {
		return l.object(func(key string) error {
			var err error
			switch key {
			case "filterServerList":
				body.FilterServerList, err = l.stringList()
				body.HasFilterServerList = body.FilterServerList != nil
				body.FilterServerList = nilIfEmpty(body.FilterServerList)
			case "topicConfigSerializeWrapper":
				if !l.isNull() {
					err = readWrapper(l, body)
				}
			default:
				err = l.skip()
			}
			return atPath(key, err)
		})
	})
	return body, err
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// readWrapper reads TopicConfigSerializeWrapper or its 5.x subclass
// TopicConfigAndMappingSerializeWrapper into body.
func readWrapper(l *lexer, body *RegisterBody) error {
	return l.object(func(key string) error {
		var err error
		switch key {
		case "dataVersion":
			if !l.isNull() {
				body.DataVersion, err = readDataVersion(l, 0)
			}
		case "topicConfigTable":
			body.TopicConfigs, err = readTopicConfigTable(l)
		case "topicQueueMappingInfoMap":
			body.MappingInfos, err = readMappingInfoList(l)
		default:
			err = l.skip()
		}
		return atPath(key, err)
	})
}

// readTopicConfigTable reads Map<String,TopicConfig> in body order. Java
// keeps the last value of a repeated map key, then registers each value under
// its topicName, so a later config for the same topicName wins as well; the
// result has unique names in order of first appearance. A table in the
// compact shape brokers write is scanned directly (topictable_compact.go).
func readTopicConfigTable(l *lexer) ([]state.TopicConfig, error) {
	if l.isNull() {
		return nil, nil
	}
	if configs, ok := l.compactTopicTable(); ok {
		return configs, nil
	}
	return readTopicConfigObject(l)
}

// readTopicConfigObject is readTopicConfigTable for a table in any form the
// lexer accepts.
func readTopicConfigObject(l *lexer) ([]state.TopicConfig, error) {
	// Room for a usual broker's topics at once, instead of five doublings.
	byKey := make([]state.TopicConfig, 0, topicTableStart)
	var index topicIndex
	err := l.object(func(key string) error {
		tc, err := readTopicConfig(l, key)
		if err != nil {
			return atPath(key, err)
		}
		byKey = index.put(byKey, key, tc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if index.m == nil {
		return nilIfEmpty(byKey), nil // every key was its topicName: no name repeats
	}
	return nilIfEmpty(dedupeTopics(byKey)), nil
}

// topicTableStart is the capacity a topic table's list starts with.
const topicTableStart = 16

// topicIndex finds a topic table's keys among those read so far. While
// every key is its config's topicName, as Java writes the table, the list
// itself is the index, scanned while it is short; from the first key that
// is not, or from dedupeScanMax configs on, a map of the keys.
type topicIndex struct{ m map[string]int }

// put stores tc under key in list: in place when key was seen, appended
// otherwise.
func (x *topicIndex) put(list []state.TopicConfig, key string, tc state.TopicConfig) []state.TopicConfig {
	if x.m == nil && (key != tc.TopicName || len(list) >= dedupeScanMax) {
		x.m = make(map[string]int, len(list)+1)
		for i := range list {
			x.m[list[i].TopicName] = i // each key so far is its topicName
		}
	}
	if x.m != nil {
		return putAt(list, x.m, key, tc)
	}
	for i := range list {
		if list[i].TopicName == key {
			list[i] = tc
			return list
		}
	}
	return append(list, tc)
}

// putAt stores v under key: in place when key was seen, appended otherwise.
func putAt[T any](list []T, index map[string]int, key string, v T) []T {
	if i, ok := index[key]; ok {
		list[i] = v
		return list
	}
	index[key] = len(list)
	return append(list, v)
}

// dedupeTopics keeps one config per topicName: the last one, at the position
// of the first.
func dedupeTopics(list []state.TopicConfig) []state.TopicConfig {
	if len(list) <= dedupeScanMax && !repeatsTopicName(list) {
		return list // the usual case, without building a second list
	}
	var out []state.TopicConfig
	index := make(map[string]int, len(list))
	for _, tc := range list {
		out = putAt(out, index, tc.TopicName, tc)
	}
	return out
}

// dedupeScanMax is the longest list dedupeTopics first scans for a
// repeated topicName, which for short lists costs less than the index.
const dedupeScanMax = 16

// repeatsTopicName reports whether two configs of list have the same
// topicName.
func repeatsTopicName(list []state.TopicConfig) bool {
	for i := range list {
		for j := i + 1; j < len(list); j++ {
			if list[i].TopicName == list[j].TopicName {
				return true
			}
		}
	}
	return false
}

// readTopicConfig reads a Java TopicConfig with its field defaults;
// tableKey is the table key it is under, which is usually its topicName and
// then becomes it without a copy. Property names are matched as bytes: a
// registration has a dozen per topic.
func readTopicConfig(l *lexer, tableKey string) (state.TopicConfig, error) {
	tc := state.TopicConfig{ReadQueueNums: defaultQueueNums, WriteQueueNums: defaultQueueNums, Perm: defaultPerm}
	err := l.objectBytes(func(key []byte) error {
		switch string(key) {
		case "topicName":
			var err error
			tc.TopicName, err = l.strLike(tableKey)
			return atPath("topicName", err)
		case "readQueueNums":
			return l.int32Prop("readQueueNums", &tc.ReadQueueNums, defaultQueueNums)
		case "writeQueueNums":
			return l.int32Prop("writeQueueNums", &tc.WriteQueueNums, defaultQueueNums)
		case "perm":
			return l.int32Prop("perm", &tc.Perm, defaultPerm)
		case "topicSysFlag":
			return l.int32Prop("topicSysFlag", &tc.TopicSysFlag, 0)
		}
		name := keyString(key) // before skip, which may reuse key's buffer
		return atPath(name, l.skip())
	})
	if err == nil && tc.TopicName == "" {
		err = fmt.Errorf("%w: topic config without topicName", ErrInvalid)
	}
	return tc, err
}

// readMappingInfoList reads Map<String,TopicQueueMappingInfo>. Java
// RouteInfoManager keys the mapping by the map key, so Topic is set to it;
// an empty key is rejected like a missing topic in the compressed form.
func readMappingInfoList(l *lexer) ([]state.TopicQueueMappingInfo, error) {
	if l.isNull() {
		return nil, nil
	}
	var out []state.TopicQueueMappingInfo
	index := map[string]int{}
	err := l.object(func(key string) error {
		info, err := readMappingInfo(l)
		if err == nil && key == "" {
			err = fmt.Errorf("%w: mapping info under an empty topic", ErrInvalid)
		}
		if err != nil {
			return atPath(key, err)
		}
		info.Topic = key
		out = putAt(out, index, key, info)
		return nil
	})
	return out, err
}
