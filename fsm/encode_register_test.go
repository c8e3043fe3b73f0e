package fsm

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

// encodeRegisterBoth encodes c by hand and by the codec's reflection.
func encodeRegisterBoth(t testing.TB, c *state.RegisterBroker) (hand, codec []byte, covered bool) {
	t.Helper()
	hand, covered = appendRegisterBroker(nil, c)
	codec, err := state.EncodeMsgpack(c)
	if err != nil {
		t.Fatal(err)
	}
	return hand, codec, covered
}

var edgeInts = []int64{0, 1, -1, 31, 32, -32, -33, 127, 128, -128, -129, 255, 256, math.MaxInt16, math.MaxInt16 + 1,
	math.MinInt16, math.MinInt16 - 1, 65535, 65536, math.MaxInt32, math.MaxInt32 + 1, math.MinInt32, math.MinInt32 - 1,
	math.MaxInt64, math.MinInt64}

var edgeLens = []int{0, 1, 31, 32, 255, 256, 65535, 65536}

func randomRegistration(r *rand.Rand) *state.RegisterBroker {
	str := func() string {
		if r.Intn(4) == 0 {
			return strings.Repeat("é", edgeLens[r.Intn(len(edgeLens))]/2) + strings.Repeat("x", r.Intn(2))
		}
		return strings.Repeat("b", r.Intn(40))
	}
	i64 := func() int64 {
		if r.Intn(2) == 0 {
			return edgeInts[r.Intn(len(edgeInts))]
		}
		return r.Int63() >> r.Intn(63) * int64(1-2*r.Intn(2))
	}
	i32 := func() int32 { return int32(max(math.MinInt32, min(math.MaxInt32, i64()))) }
	c := &state.RegisterBroker{ClusterName: str(), BrokerAddr: str(), BrokerName: str(), BrokerID: i64(), HaServerAddr: str(),
		HeartbeatTimeoutMillis: i64(), HasEnableActingMaster: r.Intn(2) == 0, EnableActingMaster: r.Intn(2) == 0,
		ZoneName: str(), DataVersion: state.DataVersion{Timestamp: i64(), Counter: i64(), StateVersion: i64()},
		HasFilterServerList: r.Intn(2) == 0, StampMillis: i64(), Continuation: r.Intn(2) == 0,
		DeleteUnlistedTopics: r.Intn(2) == 0}
	if n := []int{-1, 0, 1, 15, 16, 40}[r.Intn(6)]; n >= 0 {
		c.TopicConfigs = make([]state.TopicConfig, n)
		for i := range c.TopicConfigs {
			c.TopicConfigs[i] = state.TopicConfig{TopicName: str(), ReadQueueNums: i32(), WriteQueueNums: i32(), Perm: i32(), TopicSysFlag: i32()}
		}
	}
	if n := []int{-1, 0, 1, 15, 16, 17}[r.Intn(6)]; n >= 0 {
		c.FilterServerList = make([]string, n)
		for i := range c.FilterServerList {
			c.FilterServerList[i] = str()
		}
	}
	return c
}

// The hand encoder gives the reflection encoder's bytes for every
// registration it covers, so entries and digests do not depend on which
// one wrote them.
func TestEncode_RegisterBrokerMatchesCodec(t *testing.T) {
	r := rand.New(rand.NewSource(13))
	for i := range 3000 {
		c := randomRegistration(r)
		hand, codec, covered := encodeRegisterBoth(t, c)
		if !covered {
			t.Fatalf("registration %d without mapping infos not covered", i)
		}
		if !bytes.Equal(hand, codec) {
			t.Fatalf("registration %d: hand encoding differs from the codec's\nhand  %x\ncodec %x", i, hand, codec)
		}
	}
	big := &state.RegisterBroker{TopicConfigs: make([]state.TopicConfig, 70000), FilterServerList: make([]string, 70000)}
	if hand, codec, _ := encodeRegisterBoth(t, big); !bytes.Equal(hand, codec) {
		t.Fatal("a registration with 70000 topics encodes differently")
	}
	withMappings := &state.RegisterBroker{MappingInfos: []state.TopicQueueMappingInfo{{Topic: "t"}}}
	if _, covered := appendRegisterBroker(nil, withMappings); covered {
		t.Fatal("a registration with mapping infos claimed as covered")
	}
}

func FuzzEncodeRegisterBroker(f *testing.F) {
	f.Add("c", "10.0.0.1:10911", "b", int64(0), "t", int32(8), int64(1), true, 3)
	f.Add("", "", "", int64(-1), strings.Repeat("x", 300), int32(-100000), int64(math.MinInt64), false, 0)
	f.Fuzz(func(t *testing.T, cluster, addr, name string, id int64, topic string, queues int32, counter int64, flag bool, topics int) {
		c := &state.RegisterBroker{ClusterName: cluster, BrokerAddr: addr, BrokerName: name, BrokerID: id,
			DataVersion: state.DataVersion{Counter: counter, Timestamp: -counter}, HasFilterServerList: flag,
			EnableActingMaster: !flag, HeartbeatTimeoutMillis: int64(queues) * 1000}
		if topics = topics % 40; topics >= 0 {
			c.TopicConfigs = make([]state.TopicConfig, topics)
			for i := range c.TopicConfigs {
				c.TopicConfigs[i] = state.TopicConfig{TopicName: topic, ReadQueueNums: queues, WriteQueueNums: queues - int32(i), Perm: int32(i)}
			}
		}
		if flag {
			c.FilterServerList = []string{topic, addr}
		}
		if hand, codec, _ := encodeRegisterBoth(t, c); !bytes.Equal(hand, codec) {
			t.Fatalf("hand %x\ncodec %x", hand, codec)
		}
	})
}

// decodeRegisterBoth decodes payload by hand and with the codec.
func decodeRegisterBoth(payload []byte) (hand *state.RegisterBroker, handOK bool, codec *state.RegisterBroker, codecErr error) {
	hand, handOK = decodeRegisterBroker(payload)
	codec = &state.RegisterBroker{}
	codecErr = state.DecodeMsgpack(payload, codec)
	return hand, handOK, codec, codecErr
}

// The hand decoder takes every payload the hand encoder writes and gives
// what the codec gives.
func TestDecode_RegisterBrokerMatchesCodec(t *testing.T) {
	r := rand.New(rand.NewSource(14))
	for i := range 3000 {
		payload, _ := appendRegisterBroker(nil, randomRegistration(r))
		hand, ok, codec, err := decodeRegisterBoth(payload)
		if err != nil || !ok {
			t.Fatalf("registration %d: hand ok %v, codec error %v", i, ok, err)
		}
		if !reflect.DeepEqual(hand, codec) {
			t.Fatalf("registration %d: hand decoding %+v\ncodec %+v", i, hand, codec)
		}
	}
	// Shapes of other writers are left to the codec.
	withMappings, err := state.EncodeMsgpack(&state.RegisterBroker{MappingInfos: []state.TopicQueueMappingInfo{{Topic: "t"}}})
	if err != nil {
		t.Fatal(err)
	}
	unsigned, _ := appendRegisterBroker(nil, &state.RegisterBroker{BrokerID: 1})
	unsigned = bytes.Replace(unsigned, []byte("BrokerID\x01"), []byte("BrokerID\xcc\x01"), 1)
	for name, payload := range map[string][]byte{"mapping infos": withMappings, "unsigned form": unsigned,
		"trailing byte": append(mustHandEncode(t, &state.RegisterBroker{}), 0xc0), "empty": nil} {
		if _, ok := decodeRegisterBroker(payload); ok {
			t.Errorf("%s: taken by the hand decoder", name)
		}
	}
}

func mustHandEncode(t testing.TB, c *state.RegisterBroker) []byte {
	t.Helper()
	b, ok := appendRegisterBroker(nil, c)
	if !ok {
		t.Fatal("not covered")
	}
	return b
}

// Whatever the hand decoder accepts, the codec decodes to the same command.
func FuzzDecodeRegisterBroker(f *testing.F) {
	r := rand.New(rand.NewSource(15))
	for range 8 {
		payload, _ := appendRegisterBroker(nil, randomRegistration(r))
		if len(payload) < 4096 {
			f.Add(payload)
		}
	}
	f.Add([]byte{0xde, 0x00, 0x11})
	f.Fuzz(func(t *testing.T, payload []byte) {
		hand, ok, codec, err := decodeRegisterBoth(payload)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("hand decoder took a payload the codec refuses: %v", err)
		}
		if !reflect.DeepEqual(hand, codec) {
			t.Fatalf("hand %+v\ncodec %+v", hand, codec)
		}
	})
}

// TestMpReader_Int64Forms reads every msgpack form of a signed integer
// the value fits, at the edges of each width, and refuses a truncated one.
func TestMpReader_Int64Forms(t *testing.T) {
	values := []int64{0, 1, 127, -1, -32, -33, -128, -129, 128, 255, 256, 32767, -32768, -32769, 32768,
		math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxInt64, math.MinInt64}
	for _, v := range values {
		forms := map[string][]byte{"int 64": binary.BigEndian.AppendUint64([]byte{0xd3}, uint64(v))}
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			forms["int 32"] = binary.BigEndian.AppendUint32([]byte{0xd2}, uint32(v))
		}
		if v >= math.MinInt16 && v <= math.MaxInt16 {
			forms["int 16"] = binary.BigEndian.AppendUint16([]byte{0xd1}, uint16(v))
		}
		if v >= math.MinInt8 && v <= math.MaxInt8 {
			forms["int 8"] = []byte{0xd0, byte(v)}
		}
		if v >= -32 && v <= 127 {
			forms["fixint"] = []byte{byte(v)}
		}
		for name, b := range forms {
			var got int64
			r := mpReader{b: b}
			if !r.int64(&got) || got != v || len(r.b) != 0 {
				t.Errorf("%d as %s (% x): read %d, rest %d bytes", v, name, b, got, len(r.b))
			}
			if len(b) > 1 {
				if r := (mpReader{b: b[:len(b)-1]}); r.int64(&got) {
					t.Errorf("%d as %s, truncated: read", v, name)
				}
			}
		}
	}
	for _, b := range [][]byte{nil, {0xcc, 1}, {0xcf, 0, 0, 0, 0, 0, 0, 0, 1}, {0xc0}, {0xd4, 0, 0}} {
		var got int64
		if r := (mpReader{b: b}); r.int64(&got) {
			t.Errorf("% x read as %d", b, got)
		}
	}
}
