package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// jsonFrame builds a frame with a JSON header and body.
func jsonFrame(t *testing.T, hdr string, body []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, uint32(4+len(hdr)+len(body)))
	_ = binary.Write(&b, binary.BigEndian, uint32(len(hdr)))
	b.WriteString(hdr)
	b.Write(body)
	return b.Bytes()
}

// binaryFrame builds a frame with a ROCKETMQ binary header and no remark or extFields.
func binaryFrame(code, version int16, opaque, flag int32) []byte {
	var h bytes.Buffer
	_ = binary.Write(&h, binary.BigEndian, code)
	h.WriteByte(0) // language JAVA
	_ = binary.Write(&h, binary.BigEndian, version)
	_ = binary.Write(&h, binary.BigEndian, opaque)
	_ = binary.Write(&h, binary.BigEndian, flag)
	_ = binary.Write(&h, binary.BigEndian, int32(0)) // remark length
	_ = binary.Write(&h, binary.BigEndian, int32(0)) // extFields length
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, uint32(4+h.Len()))
	_ = binary.Write(&b, binary.BigEndian, uint32(1)<<24|uint32(h.Len()))
	b.Write(h.Bytes())
	return b.Bytes()
}

func TestReadFrame_SplitsStreamIntoFrames(t *testing.T) {
	a := jsonFrame(t, `{"code":105,"flag":0,"opaque":1}`, []byte("body"))
	b := binaryFrame(106, 453, 2, 0)
	r := bytes.NewReader(append(append([]byte{}, a...), b...))
	for i, want := range [][]byte{a, b} {
		got, err := readFrame(r)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("frame %d = %x, want %x", i, got, want)
		}
	}
	if _, err := readFrame(r); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last frame: err = %v, want io.EOF", err)
	}
}

func TestReadFrame_RejectsBadFraming(t *testing.T) {
	cases := []struct {
		name  string
		input []byte
		want  error
	}{
		{"length over 16 MiB", []byte{0x01, 0x00, 0x00, 0x00}, errFrameTooLarge},
		{"truncated body", []byte{0, 0, 0, 10, 0, 0}, io.ErrUnexpectedEOF},
		{"truncated prefix", []byte{0, 0}, io.ErrUnexpectedEOF},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := readFrame(bytes.NewReader(tc.input)); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestParseHeader_DecodesBothSerializations(t *testing.T) {
	cases := []struct {
		name  string
		frame []byte
		want  header
	}{
		{"json request", jsonFrame(t, `{"code":105,"flag":0,"language":"JAVA","opaque":7,"version":453,"extFields":{"topic":"T"}}`, nil),
			header{Code: 105, Opaque: 7, Version: 453, Language: "JAVA", Serialize: serializeJSON}},
		{"json oneway", jsonFrame(t, `{"code":322,"flag":2,"opaque":9}`, []byte("{}")),
			header{Code: 322, Flag: 2, Opaque: 9, Serialize: serializeJSON}},
		{"binary response", binaryFrame(17, 453, 42, 1),
			header{Code: 17, Flag: 1, Opaque: 42, Version: 453, Language: "lang0", Serialize: serializeRocketMQ}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseHeader(tc.frame)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("header = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseHeader_RejectsBadHeaders(t *testing.T) {
	cases := []struct {
		name  string
		frame []byte
		want  error
	}{
		{"too short", []byte{0, 0, 0, 1, 0}, errFrameTooShort},
		{"header longer than frame", []byte{0, 0, 0, 4, 0, 0, 0, 9}, errFrameTooShort},
		{"unknown serialize type", []byte{0, 0, 0, 4, 7, 0, 0, 0}, errBadHeader},
		{"json syntax", jsonFrame(t, `{"code":`, nil), errBadHeader},
		{"binary too short", []byte{0, 0, 0, 6, 1, 0, 0, 2, 0, 1}, errBadHeader},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := parseHeader(tc.frame); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestCodeName_NamesKnownAndUnknownCodes(t *testing.T) {
	cases := map[int]string{103: "REGISTER_BROKER", 322: "QUERY_DATA_VERSION", 12345: "CODE12345", -1: "CODE-1"}
	for code, want := range cases {
		if got := codeName(code); got != want {
			t.Errorf("codeName(%d) = %q, want %q", code, got, want)
		}
	}
}

// FuzzParseHeader feeds arbitrary frames to the decoders; seeds are the captured golden frames.
func FuzzParseHeader(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "frames", "captured", "*.bin"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add(binaryFrame(105, 453, 1, 0))
	f.Fuzz(func(t *testing.T, frame []byte) {
		h, err := parseHeader(frame)
		if err == nil && h.Serialize != serializeJSON && h.Serialize != serializeRocketMQ {
			t.Fatalf("accepted serialize type %d", h.Serialize)
		}
		if fr, err := readFrame(bytes.NewReader(frame)); err == nil && len(fr) > len(frame) {
			t.Fatalf("frame of %d bytes from %d input bytes", len(fr), len(frame))
		}
	})
}
