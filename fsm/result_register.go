package fsm

import "github.com/raftns/raftns/fsm/state"

import "slices"

// appendRegisterResult appends the msgpack encoding of r that the codec's
// reflection encoder gives with msgpackHandle (a map of the fields sorted by
// name; the namespace map with its keys sorted), byte for byte: every
// applied registration's answer is encoded under the FSM's lock for the
// session table, and again by a leader answering a forwarded one.
// TestRegisterResultCodec_MatchesCodec holds the two to the same bytes.
func appendRegisterResult(b []byte, r state.RegisterResult) []byte {
	b = mpMapHeader(b, 4)
	b = mpStr(mpStr(b, "HaServerAddr"), r.HaServerAddr)
	b = mpBool(mpStr(b, "HasOrderTopicConfig"), r.HasOrderTopicConfig)
	b = mpStr(mpStr(b, "MasterAddr"), r.MasterAddr)
	b = mpStr(b, "OrderTopicConfig")
	if r.OrderTopicConfig == nil {
		return append(b, 0xc0)
	}
	b = mpMapHeader(b, len(r.OrderTopicConfig))
	keys := make([]string, 0, len(r.OrderTopicConfig))
	for k := range r.OrderTopicConfig {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = mpStr(mpStr(b, k), r.OrderTopicConfig[k])
	}
	return b
}

// decodeRegisterResult decodes a RegisterResult of exactly the shape
// appendRegisterResult writes (namespace keys strictly ascending). It
// reports false for anything else, which the caller hands to the codec.
func decodeRegisterResult(buf []byte) (state.RegisterResult, bool) {
	rd := mpReader{b: buf}
	var r state.RegisterResult
	ok := rd.mapHeader(4) &&
		rd.key("HaServerAddr") && rd.str(&r.HaServerAddr) &&
		rd.key("HasOrderTopicConfig") && rd.bool(&r.HasOrderTopicConfig) &&
		rd.key("MasterAddr") && rd.str(&r.MasterAddr) &&
		rd.key("OrderTopicConfig") && rd.sortedStringMap(&r.OrderTopicConfig) &&
		len(rd.b) == 0
	return r, ok
}

// sortedStringMap reads nil (leaving *dst nil) or a map of string keys in
// strictly ascending order to string values.
func (r *mpReader) sortedStringMap(dst *map[string]string) bool {
	if len(r.b) > 0 && r.b[0] == 0xc0 {
		r.b = r.b[1:]
		return true
	}
	n, ok := r.container(0x80, 0x8f, 0xde, 0xdf)
	if !ok || n > len(r.b)/2 { // every entry takes at least two bytes
		return false
	}
	m := make(map[string]string, n)
	prev := ""
	for i := range n {
		var k, v string
		if !r.str(&k) || (i > 0 && k <= prev) || !r.str(&v) {
			return false
		}
		m[k], prev = v, k
	}
	*dst = m
	return true
}

// withHandResult gives a command's answer of type R a hand encoder and
// decoder, keeping the spec's reflection codec for what the hand decoder
// does not take.
func withHandResult[R any](spec commandSpec, appendR func([]byte, R) []byte, decodeR func([]byte) (R, bool)) commandSpec {
	encode, decode := spec.encodeResult, spec.decodeResult
	spec.encodeResult = func(res any) ([]byte, error) {
		if r, ok := res.(R); ok {
			return appendR(nil, r), nil
		}
		return encode(res)
	}
	spec.decodeResult = func(buf []byte) (any, error) {
		if r, ok := decodeR(buf); ok {
			return r, nil
		}
		return decode(buf)
	}
	return spec
}
