package fsm

import (
	"encoding/binary"
	"github.com/raftns/raftns/fsm/state"
	"math"
)

// decodeRegisterBroker decodes a RegisterBroker payload of exactly the shape
// appendRegisterBroker writes (every field, in that order, in the forms it
// uses), as the codec would. It reports false for anything else — an entry
// from another writer, a command with mapping infos, damaged bytes — which
// the caller hands to the codec, so what decodes, and how, does not change.
// TestDecode_RegisterBrokerMatchesCodec and FuzzDecodeRegisterBroker hold
// it to the codec's results.
func decodeRegisterBroker(buf []byte) (*state.RegisterBroker, bool) {
	r := mpReader{b: buf}
	c := &state.RegisterBroker{}
	ok := r.mapHeader(17) &&
		r.key("BrokerAddr") && r.str(&c.BrokerAddr) &&
		r.key("BrokerID") && r.int64(&c.BrokerID) &&
		r.key("BrokerName") && r.str(&c.BrokerName) &&
		r.key("ClusterName") && r.str(&c.ClusterName) &&
		r.key("Continuation") && r.bool(&c.Continuation) &&
		r.key("DataVersion") && r.mapHeader(3) &&
		r.key("Counter") && r.int64(&c.DataVersion.Counter) &&
		r.key("StateVersion") && r.int64(&c.DataVersion.StateVersion) &&
		r.key("Timestamp") && r.int64(&c.DataVersion.Timestamp) &&
		r.key("DeleteUnlistedTopics") && r.bool(&c.DeleteUnlistedTopics) &&
		r.key("EnableActingMaster") && r.bool(&c.EnableActingMaster) &&
		r.key("FilterServerList") && mpReadArray(&r, &c.FilterServerList, (*mpReader).str) &&
		r.key("HaServerAddr") && r.str(&c.HaServerAddr) &&
		r.key("HasEnableActingMaster") && r.bool(&c.HasEnableActingMaster) &&
		r.key("HasFilterServerList") && r.bool(&c.HasFilterServerList) &&
		r.key("HeartbeatTimeoutMillis") && r.int64(&c.HeartbeatTimeoutMillis) &&
		r.key("MappingInfos") && r.nilValue() &&
		r.key("StampMillis") && r.int64(&c.StampMillis) &&
		r.key("TopicConfigs") && mpReadArray(&r, &c.TopicConfigs, (*mpReader).topicConfig) &&
		r.key("ZoneName") && r.str(&c.ZoneName) &&
		len(r.b) == 0
	return c, ok
}

// mpReader reads the msgpack forms appendRegisterBroker writes; each method
// reports false at anything else.
type mpReader struct{ b []byte }

func (r *mpReader) byte() (byte, bool) {
	if len(r.b) == 0 {
		return 0, false
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v, true
}

func (r *mpReader) next(n int) ([]byte, bool) {
	if n < 0 || len(r.b) < n {
		return nil, false
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v, true
}

// container reads a header of the fix form (fix0 with up to fixMax) or the
// 16- or 32-bit form.
func (r *mpReader) container(fix0, fixMax, b16, b32 byte) (int, bool) {
	t, ok := r.byte()
	switch {
	case !ok:
		return 0, false
	case t >= fix0 && t <= fixMax:
		return int(t - fix0), true
	case t == b16:
		v, ok := r.next(2)
		if !ok {
			return 0, false
		}
		return int(binary.BigEndian.Uint16(v)), true
	case t == b32:
		v, ok := r.next(4)
		if !ok {
			return 0, false
		}
		n := binary.BigEndian.Uint32(v)
		return int(n), n <= math.MaxInt32
	}
	return 0, false
}

func (r *mpReader) mapHeader(want int) bool {
	n, ok := r.container(0x80, 0x8f, 0xde, 0xdf)
	return ok && n == want
}

func (r *mpReader) rawString() ([]byte, bool) {
	n, ok := r.container(0xa0, 0xbf, 0xda, 0xdb)
	if !ok {
		return nil, false
	}
	return r.next(n)
}

func (r *mpReader) key(want string) bool {
	k, ok := r.rawString()
	return ok && string(k) == want
}

func (r *mpReader) str(dst *string) bool {
	s, ok := r.rawString()
	*dst = string(s)
	return ok
}

func (r *mpReader) bool(dst *bool) bool {
	t, ok := r.byte()
	*dst = t == 0xc3
	return ok && (t == 0xc2 || t == 0xc3)
}

func (r *mpReader) nilValue() bool {
	t, ok := r.byte()
	return ok && t == 0xc0
}

// int64 reads a signed integer in any of its forms: a positive or negative
// fixint, or int 8, 16, 32 or 64 (0xd0 to 0xd3: 1, 2, 4 or 8 big-endian
// bytes of two's complement).
func (r *mpReader) int64(dst *int64) bool {
	t, ok := r.byte()
	switch {
	case !ok:
		return false
	case t <= 0x7f || t >= 0xe0:
		*dst = int64(int8(t))
		return true
	case t < 0xd0 || t > 0xd3:
		return false
	}
	n := 1 << (t - 0xd0)
	v, ok := r.next(n)
	if !ok {
		return false
	}
	var be [8]byte
	copy(be[8-n:], v)
	shift := 64 - 8*n // sign-extends the n bytes
	*dst = int64(binary.BigEndian.Uint64(be[:])<<shift) >> shift
	return true
}

// int32 reads a signed integer that fits an int32.
func (r *mpReader) int32(dst *int32) bool {
	var v int64
	if !r.int64(&v) || v < math.MinInt32 || v > math.MaxInt32 {
		return false
	}
	*dst = int32(v)
	return true
}

func (r *mpReader) topicConfig(tc *state.TopicConfig) bool {
	return r.mapHeader(5) &&
		r.key("Perm") && r.int32(&tc.Perm) &&
		r.key("ReadQueueNums") && r.int32(&tc.ReadQueueNums) &&
		r.key("TopicName") && r.str(&tc.TopicName) &&
		r.key("TopicSysFlag") && r.int32(&tc.TopicSysFlag) &&
		r.key("WriteQueueNums") && r.int32(&tc.WriteQueueNums)
}

// mpReadArray reads nil (leaving *dst nil) or an array of elements.
func mpReadArray[T any](r *mpReader, dst *[]T, elem func(*mpReader, *T) bool) bool {
	if len(r.b) > 0 && r.b[0] == 0xc0 {
		r.b = r.b[1:]
		return true
	}
	n, ok := r.container(0x90, 0x9f, 0xdc, 0xdd)
	if !ok || n > len(r.b) { // every element takes at least one byte
		return false
	}
	*dst = make([]T, n)
	for i := range *dst {
		if !elem(r, &(*dst)[i]) {
			return false
		}
	}
	return true
}
