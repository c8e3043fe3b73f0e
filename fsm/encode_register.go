package fsm

import (
	"encoding/binary"
	"github.com/raftns/raftns/fsm/state"
	"math"
	"slices"
)

// appendRegisterBroker appends the msgpack encoding of c that the codec's
// reflection encoder gives with msgpackHandle (a map of the fields sorted by
// name, strings in the raw form, integers in their smallest signed form),
// byte for byte: a registration is encoded on every changed REGISTER_BROKER,
// and reflection costs as much as the rest of the proposal. It reports
// false for a command it does not cover (static-topic mapping infos), which
// the caller encodes by reflection. TestEncode_RegisterBrokerMatchesCodec
// holds the two encoders to the same bytes.
func appendRegisterBroker(b []byte, c *state.RegisterBroker) ([]byte, bool) {
	if c.MappingInfos != nil {
		return b, false
	}
	b = slices.Grow(b, registerSizeHint(c))
	b = mpMapHeader(b, 17)
	b = mpStr(mpStr(b, "BrokerAddr"), c.BrokerAddr)
	b = mpInt(mpStr(b, "BrokerID"), c.BrokerID)
	b = mpStr(mpStr(b, "BrokerName"), c.BrokerName)
	b = mpStr(mpStr(b, "ClusterName"), c.ClusterName)
	b = mpBool(mpStr(b, "Continuation"), c.Continuation)
	b = mpStr(b, "DataVersion")
	b = mpMapHeader(b, 3)
	b = mpInt(mpStr(b, "Counter"), c.DataVersion.Counter)
	b = mpInt(mpStr(b, "StateVersion"), c.DataVersion.StateVersion)
	b = mpInt(mpStr(b, "Timestamp"), c.DataVersion.Timestamp)
	b = mpBool(mpStr(b, "DeleteUnlistedTopics"), c.DeleteUnlistedTopics)
	b = mpBool(mpStr(b, "EnableActingMaster"), c.EnableActingMaster)
	b = mpArray(mpStr(b, "FilterServerList"), c.FilterServerList, mpStr)
	b = mpStr(mpStr(b, "HaServerAddr"), c.HaServerAddr)
	b = mpBool(mpStr(b, "HasEnableActingMaster"), c.HasEnableActingMaster)
	b = mpBool(mpStr(b, "HasFilterServerList"), c.HasFilterServerList)
	b = mpInt(mpStr(b, "HeartbeatTimeoutMillis"), c.HeartbeatTimeoutMillis)
	b = append(mpStr(b, "MappingInfos"), 0xc0)
	b = mpInt(mpStr(b, "StampMillis"), c.StampMillis)
	b = mpArray(mpStr(b, "TopicConfigs"), c.TopicConfigs, appendTopicConfig)
	b = mpStr(mpStr(b, "ZoneName"), c.ZoneName)
	return b, true
}

func appendTopicConfig(b []byte, tc state.TopicConfig) []byte {
	b = mpMapHeader(b, 5)
	b = mpInt(mpStr(b, "Perm"), int64(tc.Perm))
	b = mpInt(mpStr(b, "ReadQueueNums"), int64(tc.ReadQueueNums))
	b = mpStr(mpStr(b, "TopicName"), tc.TopicName)
	b = mpInt(mpStr(b, "TopicSysFlag"), int64(tc.TopicSysFlag))
	return mpInt(mpStr(b, "WriteQueueNums"), int64(tc.WriteQueueNums))
}

// mpArray appends list as the codec does a slice: nil for a nil slice,
// else an array of its elements.
func mpArray[T any](b []byte, list []T, elem func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, 0xc0)
	}
	b = mpArrayHeader(b, len(list))
	for _, v := range list {
		b = elem(b, v)
	}
	return b
}

// registerSizeHint is about the encoded size of c, so that it is encoded
// into one allocation: field names and headers, plus the strings.
func registerSizeHint(c *state.RegisterBroker) int {
	n := 400 + len(c.BrokerAddr) + len(c.BrokerName) + len(c.ClusterName) + len(c.HaServerAddr) + len(c.ZoneName)
	for _, s := range c.FilterServerList {
		n += 5 + len(s)
	}
	for i := range c.TopicConfigs {
		n += 100 + len(c.TopicConfigs[i].TopicName)
	}
	return n
}

// mpContainer appends a container header: a fix form below fixCutoff, else
// the 16- or 32-bit length form (fix0, b16, b32 are the type bytes).
func mpContainer(b []byte, n, fixCutoff int, fix0, b16, b32 byte) []byte {
	switch {
	case n < fixCutoff:
		return append(b, fix0|byte(n))
	case n < 1<<16:
		return binary.BigEndian.AppendUint16(append(b, b16), uint16(n))
	default:
		return binary.BigEndian.AppendUint32(append(b, b32), uint32(n))
	}
}

func mpMapHeader(b []byte, n int) []byte   { return mpContainer(b, n, 16, 0x80, 0xde, 0xdf) }
func mpArrayHeader(b []byte, n int) []byte { return mpContainer(b, n, 16, 0x90, 0xdc, 0xdd) }

// mpStr appends s in the raw (pre-str8) string form the handle writes.
func mpStr(b []byte, s string) []byte {
	return append(mpContainer(b, len(s), 32, 0xa0, 0xda, 0xdb), s...)
}

func mpBool(b []byte, v bool) []byte {
	if v {
		return append(b, 0xc3)
	}
	return append(b, 0xc2)
}

// mpInt appends i in the smallest signed form.
func mpInt(b []byte, i int64) []byte {
	switch {
	case i > math.MaxInt8:
		switch {
		case i <= math.MaxInt16:
			return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(i))
		case i <= math.MaxInt32:
			return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(i))
		default:
			return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(i))
		}
	case i >= -32:
		return append(b, byte(i))
	case i >= math.MinInt8:
		return append(b, 0xd0, byte(i))
	case i >= math.MinInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(i))
	case i >= math.MinInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(i))
	default:
		return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(i))
	}
}
