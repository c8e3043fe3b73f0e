package remoting

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// seedFrames adds every golden frame, transformed by fn, to the corpus.
func seedFrames(f *testing.F, fn func(frame []byte) ([]byte, bool)) {
	for _, name := range goldenFiles(f) {
		if seed, ok := fn(readGolden(f, name)); ok {
			f.Add(seed)
		}
	}
}

// allowedEncodeError reports whether a decoded command may fail to
// re-encode: output limits that input does not have (a response code
// outside int16 in JSON; a header grown past MaxHeaderLength by escaping or
// U+FFFD replacement).
func allowedEncodeError(c *Command, err error) bool {
	return errors.Is(err, ErrHeaderTooLarge) || c.IsResponse() && errors.Is(err, ErrCodeRange)
}

func FuzzDecodeFrame(f *testing.F) {
	seedFrames(f, func(b []byte) ([]byte, bool) { return b[4:], true })
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Add([]byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, frame []byte) {
		c, err := DecodeFrame(frame)
		streamed, serr := ReadCommand(bufio.NewReader(bytes.NewReader(
			append(binary.BigEndian.AppendUint32(nil, uint32(len(frame))), frame...))))
		if (err == nil) != (serr == nil) || !reflect.DeepEqual(c, streamed) {
			t.Fatalf("DecodeFrame = %+v, %v; ReadCommand = %+v, %v", c, err, streamed, serr)
		}
		if err != nil {
			return
		}
		enc, err := EncodeFrame(c)
		if err != nil {
			if allowedEncodeError(c, err) {
				return
			}
			t.Fatalf("re-encode %+v: %v", c, err)
		}
		again, err := DecodeFrame(enc[4:])
		if err != nil {
			t.Fatalf("decode re-encoded %x: %v", enc, err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip = %+v, want %+v", again, c)
		}
	})
}

func FuzzJSONHeader(f *testing.F) {
	seedFrames(f, func(b []byte) ([]byte, bool) { return b[8:], b[4] == 0 })
	f.Add([]byte(`{code:1,'remark':'\x41\u00e9',,extFields:{a:true,b:null,c:{"d":[1]}}}`))
	f.Add([]byte(`{"remark":"\uD83D\uDE00\uD800"}`))
	f.Fuzz(func(t *testing.T, header []byte) {
		var c Command
		if err := decodeJSONHeader(header, &c); err != nil {
			if !errors.Is(err, ErrBadHeader) {
				t.Fatalf("error %v does not wrap ErrBadHeader", err)
			}
			return
		}
		enc, err := appendJSONHeader(nil, &c)
		if err != nil {
			if allowedEncodeError(&c, err) {
				return
			}
			t.Fatalf("re-encode %+v: %v", c, err)
		}
		// What we write must be strict JSON with string extFields values,
		// the shape GO's jsoniter struct and ONS's JSON.parse require.
		var strict struct {
			ExtFields map[string]string `json:"extFields"`
		}
		if err := json.Unmarshal(enc, &strict); err != nil {
			t.Fatalf("encoded header is not strict JSON: %v\n%s", err, enc)
		}
		var again Command
		if err := decodeJSONHeader(enc, &again); err != nil {
			t.Fatalf("decode re-encoded %s: %v", enc, err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip = %+v, want %+v", again, c)
		}
	})
}

func FuzzBinaryHeader(f *testing.F) {
	seedFrames(f, func(b []byte) ([]byte, bool) { return b[8:], b[4] == 1 })
	f.Add(binaryHeader(0, nil))
	f.Add(binaryHeaderExt(append(binaryEntry("k", "v"), binaryEntry("", "x")...)))
	f.Fuzz(func(t *testing.T, header []byte) {
		c := Command{SerializeType: SerializeRocketMQ}
		if err := decodeBinaryHeader(header, &c); err != nil {
			if !errors.Is(err, ErrBadHeader) {
				t.Fatalf("error %v does not wrap ErrBadHeader", err)
			}
			return
		}
		enc, err := appendBinaryHeader(nil, &c)
		if err != nil {
			t.Fatalf("re-encode %+v: %v", c, err)
		}
		again := Command{SerializeType: SerializeRocketMQ}
		if err := decodeBinaryHeader(enc, &again); err != nil {
			t.Fatalf("decode re-encoded %x: %v", enc, err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip = %+v, want %+v", again, c)
		}
	})
}
