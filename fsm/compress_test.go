package fsm

import (
	"errors"
	"fmt"
	"github.com/raftns/raftns/fsm/state"
	"reflect"
	"testing"
)

func bigRegistration(topics int) *state.RegisterBroker {
	c := &state.RegisterBroker{ClusterName: "c", BrokerName: "b", BrokerAddr: "10.0.0.1:10911", HasFilterServerList: true}
	for i := 0; i < topics; i++ {
		c.TopicConfigs = append(c.TopicConfigs, state.TopicConfig{TopicName: fmt.Sprintf("topic-%06d", i), ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6})
	}
	return c
}

func TestEncode_LargeEntriesAreCompressedAndRoundTrip(t *testing.T) {
	for _, topics := range []int{10, 5000, 20000} {
		cmd := bigRegistration(topics)
		buf, err := Encode(RegisterBrokerType, cmd)
		if err != nil {
			t.Fatal(err)
		}
		compressed := CommandType(buf[0]) == compressedType
		if compressed != (topics > 100) {
			t.Fatalf("%d topics: compressed = %v", topics, compressed)
		}
		if len(buf) > 512<<10 {
			t.Fatalf("%d topics: entry of %d bytes exceeds 512 KiB", topics, len(buf))
		}
		typ, got, err := Decode(buf)
		if err != nil {
			t.Fatal(err)
		}
		if typ != RegisterBrokerType || !reflect.DeepEqual(got, cmd) {
			t.Fatalf("%d topics: round trip gave %s %T", topics, typ, got)
		}
	}
}

func TestDecode_RefusesBrokenCompressedEntries(t *testing.T) {
	for name, buf := range map[string][]byte{
		"no inner type": {byte(compressedType)},
		"nested":        {byte(compressedType), byte(compressedType), 1},
		"not deflate":   {byte(compressedType), byte(RegisterBrokerType), 0xff, 0xff, 0xff},
		"truncated": func() []byte {
			b, _ := Encode(RegisterBrokerType, bigRegistration(5000))
			return b[:len(b)/2]
		}(),
	} {
		if _, _, err := Decode(buf); !errors.Is(err, ErrDecodeCommand) {
			t.Fatalf("%s: err = %v, want ErrDecodeCommand", name, err)
		}
	}
}
