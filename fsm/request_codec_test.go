package fsm

import (
	"bytes"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/raftns/raftns/fsm/state"
)

var edgeUints = []uint64{0, 1, 127, 128, 255, 256, math.MaxUint16, math.MaxUint16 + 1, math.MaxUint32,
	math.MaxUint32 + 1, math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64}

func randomRequestID(r *rand.Rand) state.RequestID {
	u64 := func() uint64 {
		if r.Intn(2) == 0 {
			return edgeUints[r.Intn(len(edgeUints))]
		}
		return r.Uint64() >> r.Intn(64)
	}
	session := strings.Repeat("s", []int{0, 1, 31, 32, 128, 255, 256, 65536}[r.Intn(8)])
	return state.RequestID{Session: session, Seq: u64(), Floor: u64()}
}

// codecRequestID decodes a RequestID at the start of buf with the codec.
func codecRequestID(buf []byte) (state.RequestID, int, error) {
	var id state.RequestID
	n, err := state.DecodeMsgpackPrefix(buf, &id)
	return id, n, err
}

// The hand encoder writes the codec's bytes for every RequestID, valid or
// not, and the hand decoder reads them back as the codec does, stopping
// where the codec stops.
func TestRequestIDCodec_MatchesCodec(t *testing.T) {
	r := rand.New(rand.NewSource(20))
	for i := range 3000 {
		id := randomRequestID(r)
		want, err := state.EncodeMsgpack(&id)
		if err != nil {
			t.Fatal(err)
		}
		hand := appendRequestID(nil, id)
		if !bytes.Equal(hand, want) {
			t.Fatalf("id %d %+v: hand %x\ncodec %x", i, id, hand, want)
		}
		entry := append(hand, byte(PutKVType), 0x80)
		got, n, ok := decodeRequestID(entry)
		cid, cn, cerr := codecRequestID(entry)
		if !ok || cerr != nil || got != id || cid != id || n != len(hand) || cn != n {
			t.Fatalf("id %d: hand %+v (%d bytes, ok %v), codec %+v (%d bytes, %v), want %+v (%d bytes)",
				i, got, n, ok, cid, cn, cerr, id, len(hand))
		}
	}
}

// Shapes the hand encoder does not write go to the codec, which still
// decodes them as before.
func TestRequestIDCodec_OtherShapesFallBackToTheCodec(t *testing.T) {
	id := state.RequestID{Session: "n1/ab", Seq: 9, Floor: 3}
	good := appendRequestID(nil, id)
	signedSeq := bytes.Replace(good, []byte("Seq\x09"), []byte("Seq\xd0\x09"), 1)
	uint8Seq := bytes.Replace(good, []byte("Seq\x09"), []byte("Seq\xcc\x09"), 1)
	reordered := mpStr(mpStr(mpUint(mpStr(mpUint(mpStr(mpMapHeader(nil, 3), "Seq"), 9), "Floor"), 3), "Session"), "n1/ab")
	for name, buf := range map[string][]byte{"signed seq": signedSeq, "reordered": reordered} {
		if _, _, ok := decodeRequestID(buf); ok {
			t.Errorf("%s: taken by the hand decoder", name)
		}
		got, n, err := decodeRequestIDHeader(buf)
		if err != nil || got != id || n != len(buf) {
			t.Errorf("%s: decoded %+v (%d of %d bytes), %v; want %+v", name, got, n, len(buf), err, id)
		}
	}
	// A longer form of an integer than the encoder writes is still a form
	// it reads.
	if got, n, ok := decodeRequestID(uint8Seq); !ok || got != id || n != len(uint8Seq) {
		t.Errorf("uint8 seq: %+v, %d, %v", got, n, ok)
	}
	for _, cut := range []int{0, 1, 7, len(good) - 1} {
		if _, _, ok := decodeRequestID(good[:cut]); ok {
			t.Errorf("truncated to %d bytes: taken", cut)
		}
	}
}

// Whatever the hand decoder accepts, the codec decodes to the same
// RequestID and the same length.
func FuzzDecodeRequestID(f *testing.F) {
	r := rand.New(rand.NewSource(21))
	for range 6 {
		if b := appendRequestID(nil, randomRequestID(r)); len(b) < 1024 {
			f.Add(b)
		}
	}
	f.Add([]byte{0x83, 0xa5})
	f.Fuzz(func(t *testing.T, buf []byte) {
		id, n, ok := decodeRequestID(buf)
		if !ok {
			return
		}
		cid, cn, err := codecRequestID(buf)
		if err != nil || cid != id || cn != n {
			t.Fatalf("hand %+v (%d bytes); codec %+v (%d bytes), %v", id, n, cid, cn, err)
		}
	})
}
