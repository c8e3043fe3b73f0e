package fsm

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

func randomRegisterResult(r *rand.Rand) state.RegisterResult {
	str := func() string { return strings.Repeat("a", edgeLens[r.Intn(len(edgeLens)-1)]) + fmt.Sprint(r.Intn(100)) }
	res := state.RegisterResult{HasOrderTopicConfig: r.Intn(2) == 0}
	if r.Intn(2) == 0 {
		res.MasterAddr, res.HaServerAddr = str(), str()
	}
	if n := []int{-1, 0, 1, 2, 15, 16, 40}[r.Intn(7)]; n >= 0 {
		res.OrderTopicConfig = make(map[string]string, n)
		for range n {
			res.OrderTopicConfig[fmt.Sprintf("topic-%d", r.Intn(1000))] = str()
		}
	}
	return res
}

// decodeRegisterResultBoth decodes buf by hand and with the codec.
func decodeRegisterResultBoth(buf []byte) (hand state.RegisterResult, handOK bool, codec state.RegisterResult, codecErr error) {
	hand, handOK = decodeRegisterResult(buf)
	codecErr = state.DecodeMsgpack(buf, &codec)
	return hand, handOK, codec, codecErr
}

// The hand encoder writes the codec's bytes for every answer, and the hand
// decoder reads them as the codec does (nil and empty maps kept apart).
func TestRegisterResultCodec_MatchesCodec(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	for i := range 2000 {
		res := randomRegisterResult(r)
		want, err := state.EncodeMsgpack(res)
		if err != nil {
			t.Fatal(err)
		}
		hand := appendRegisterResult(nil, res)
		if !bytes.Equal(hand, want) {
			t.Fatalf("answer %d %+v: hand %x\ncodec %x", i, res, hand, want)
		}
		got, ok, codec, err := decodeRegisterResultBoth(hand)
		if !ok || err != nil || !reflect.DeepEqual(got, codec) || !reflect.DeepEqual(got, res) {
			t.Fatalf("answer %d: hand %+v (ok %v), codec %+v (%v), want %+v", i, got, ok, codec, err, res)
		}
		viaRegistry, err := EncodeResult(RegisterBrokerType, res)
		if err != nil || !bytes.Equal(viaRegistry, want) {
			t.Fatalf("answer %d: EncodeResult %x, %v", i, viaRegistry, err)
		}
		back, err := DecodeResult(RegisterBrokerType, viaRegistry)
		if err != nil || !reflect.DeepEqual(back, res) {
			t.Fatalf("answer %d: DecodeResult %+v, %v", i, back, err)
		}
	}
}

// Shapes the hand encoder does not write (keys out of order, a repeated
// key, a trailing byte) are left to the codec, which decodes them as
// before.
func TestRegisterResultCodec_OtherShapesFallBackToTheCodec(t *testing.T) {
	head := mpStr(mpStr(mpStr(mpBool(mpStr(mpStr(mpStr(mpMapHeader(nil, 4), "HaServerAddr"), "h"), "HasOrderTopicConfig"), true), "MasterAddr"), "m"), "OrderTopicConfig")
	unordered := mpStr(mpStr(mpStr(mpStr(mpMapHeader(bytes.Clone(head), 2), "b"), "2"), "a"), "1")
	repeated := mpStr(mpStr(mpStr(mpStr(mpMapHeader(bytes.Clone(head), 2), "a"), "1"), "a"), "2")
	good := appendRegisterResult(nil, state.RegisterResult{MasterAddr: "m", OrderTopicConfig: map[string]string{"a": "1"}})
	for name, buf := range map[string][]byte{"unordered": unordered, "repeated": repeated, "trailing": append(good, 0xc0)} {
		if _, ok := decodeRegisterResult(buf); ok {
			t.Errorf("%s: taken by the hand decoder", name)
		}
		var want state.RegisterResult
		wantErr := state.DecodeMsgpack(buf, &want)
		got, err := DecodeResult(RegisterBrokerType, buf)
		if (err != nil) != (wantErr != nil) || (err == nil && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: DecodeResult %+v, %v; codec %+v, %v", name, got, err, want, wantErr)
		}
	}
}

// Whatever the hand decoder accepts, the codec decodes to the same answer.
func FuzzDecodeRegisterResult(f *testing.F) {
	r := rand.New(rand.NewSource(23))
	for range 6 {
		if b := appendRegisterResult(nil, randomRegisterResult(r)); len(b) < 2048 {
			f.Add(b)
		}
	}
	f.Add(appendRegisterResult(nil, state.RegisterResult{MasterAddr: "m", HasOrderTopicConfig: true, OrderTopicConfig: map[string]string{"a": "1", "b": ""}}))
	f.Fuzz(func(t *testing.T, buf []byte) {
		hand, ok, codec, err := decodeRegisterResultBoth(buf)
		if !ok {
			return
		}
		if err != nil || !reflect.DeepEqual(hand, codec) {
			t.Fatalf("hand %+v; codec %+v, %v", hand, codec, err)
		}
	})
}
