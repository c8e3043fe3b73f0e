package remoting

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// rawFrame builds a frame from a length, a header-length word and the rest.
func rawFrame(l uint32, word uint32, rest []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, l)
	b = binary.BigEndian.AppendUint32(b, word)
	return append(b, rest...)
}

// jsonFrame wraps a JSON header text in a correct frame.
func jsonFrame(header string) []byte {
	return rawFrame(uint32(4+len(header)), uint32(len(header)), []byte(header))
}

func TestReadCommand_Malformed(t *testing.T) {
	okHeader := `{"code":105}`
	tests := []struct {
		name    string
		in      []byte
		wantErr error
		text    string // substring of the error message
		// streamOnly marks cases about the length prefix or a stream cut
		// short, which DecodeFrame (given a whole frame) cannot see.
		streamOnly bool
	}{
		{"truncated length", []byte{0, 0}, ErrTruncated, "truncated", true},
		{"length only", []byte{0, 0, 0, 20}, ErrTruncated, "truncated", true},
		{"truncated header", jsonFrame(okHeader)[:12], ErrTruncated, "unexpected EOF", true},
		{"truncated body", append(rawFrame(4+12+10, 12, []byte(okHeader)), 1, 2), ErrTruncated, "truncated", true},
		{"negative length", rawFrame(0xFFFFFFF0, 0, nil), ErrBadLength, "negative frame length", true},
		{"length below 4", rawFrame(3, 0, nil), ErrBadLength, "shorter than the header-length word", true},
		{"zero length", rawFrame(0, 0, nil), ErrBadLength, "shorter", true},
		{"oversized length", rawFrame(MaxFrameLength+1, 0, nil), ErrFrameTooLarge, "exceeds 16777212", true},
		{"header longer than frame", rawFrame(4+5, 6, []byte("{}{}{")), ErrBadLength, "header length 6 exceeds frame length 9", false},
		{"header over limit", rawFrame(4+MaxHeaderLength+1, MaxHeaderLength+1, nil), ErrHeaderTooLarge, "limit 65536", true},
		{"unknown serialize type", rawFrame(4+2, 2<<24|2, []byte("{}")), ErrUnknownSerializeType, "serialize type: 2", false},
		{"type 0xFF", rawFrame(4+2, 0xFF<<24|2, []byte("{}")), ErrUnknownSerializeType, "255", false},
		{"empty json header", rawFrame(4, 0, nil), ErrBadHeader, "expected '{'", false},
		{"garbage json", jsonFrame("hello"), ErrBadHeader, "expected '{'", false},
		{"unterminated json", jsonFrame(`{"code":105`), ErrBadHeader, "unterminated object", false},
		{"json code not a number", jsonFrame(`{"code":"abc"}`), ErrBadHeader, "expected an int32", false},
		{"json code overflows int32", jsonFrame(`{"code":2147483648}`), ErrBadHeader, "expected an int32", false},
		{"json trailing data", jsonFrame(`{"code":105}x`), ErrBadHeader, "data after the header object", false},
		{"json extFields array", jsonFrame(`{"extFields":[1]}`), ErrBadHeader, "extFields is not an object", false},
		{"json bad escape", jsonFrame(`{"remark":"\q"}`), ErrBadHeader, "bad escape", false},
		{"empty binary header", rawFrame(4, 1<<24, nil), ErrBadHeader, "shorter than the 21 fixed bytes", false},
		{"binary remark length > H", binaryFrame(binaryHeader(100, nil)), ErrBadHeader, "remark length 100 exceeds header length", false},
		{"binary negative remark length", binaryFrame(binaryHeader(-1, nil)), ErrBadHeader, "negative remark length", false},
		{"binary ext length > H", binaryFrame(binaryHeaderExtLen(1000)), ErrBadHeader, "ext length 1000 exceeds header length", false},
		{"binary negative ext length", binaryFrame(binaryHeaderExtLen(-5)), ErrBadHeader, "negative ext length", false},
		{"binary negative key length", binaryFrame(binaryHeaderExt([]byte{0xFF, 0xFF, 0, 0, 0, 0})), ErrBadHeader, "ext key length -1", false},
		{"binary key past ext", binaryFrame(binaryHeaderExt([]byte{0, 9, 'a'})), ErrBadHeader, "ext key length 9 exceeds", false},
		{"binary negative value length", binaryFrame(binaryHeaderExt([]byte{0, 1, 'k', 0xFF, 0xFF, 0xFF, 0xFE})), ErrBadHeader, "negative ext value length -2", false},
		{"binary value past ext", binaryFrame(binaryHeaderExt([]byte{0, 1, 'k', 0, 0, 0, 3, 'v'})), ErrBadHeader, "ext value length 3 exceeds", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ReadCommand(bufio.NewReader(bytes.NewReader(tt.in)))
			checkErr(t, "ReadCommand", c, err, tt.wantErr, tt.text)
			if tt.streamOnly {
				return
			}
			c, err = DecodeFrame(tt.in[4:])
			checkErr(t, "DecodeFrame", c, err, tt.wantErr, tt.text)
		})
	}
}

func TestDecodeFrame_Malformed(t *testing.T) {
	tests := []struct {
		name    string
		frame   []byte
		wantErr error
		text    string
	}{
		{"empty", nil, ErrTruncated, "header-length word needs 4"},
		{"three bytes", []byte{0, 0, 0}, ErrTruncated, "3 bytes"},
		{"over frame limit", make([]byte, MaxFrameLength+1), ErrFrameTooLarge, "exceeds 16777212"},
		{"header longer than frame", []byte{0, 0, 0, 9, '{', '}'}, ErrBadLength, "header length 9 exceeds frame length 6"},
		{"header over limit", append([]byte{0, 1, 0, 1}, make([]byte, MaxHeaderLength+1)...), ErrHeaderTooLarge, "65537 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeFrame(tt.frame)
			checkErr(t, "DecodeFrame", c, err, tt.wantErr, tt.text)
		})
	}
}

func checkErr(t *testing.T, what string, c *Command, err, want error, text string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s error = %v, want %v", what, err, want)
	}
	if !strings.Contains(err.Error(), text) {
		t.Fatalf("%s error = %q, want it to mention %q", what, err, text)
	}
	if c != nil {
		t.Fatalf("%s returned a command with an error: %+v", what, c)
	}
}

// binaryHeader is a minimal binary header with the given remark length and
// remark bytes, and an empty ext section.
func binaryHeader(remarkLen int32, remark []byte) []byte {
	b := []byte{0, 105, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}
	b = binary.BigEndian.AppendUint32(b, uint32(remarkLen))
	b = append(b, remark...)
	return binary.BigEndian.AppendUint32(b, 0)
}

func binaryHeaderExtLen(extLen int32) []byte {
	b := binaryHeader(0, nil)
	binary.BigEndian.PutUint32(b[len(b)-4:], uint32(extLen))
	return b
}

func binaryHeaderExt(ext []byte) []byte {
	b := binaryHeaderExtLen(int32(len(ext)))
	return append(b, ext...)
}

func binaryFrame(header []byte) []byte {
	return rawFrame(uint32(4+len(header)), 1<<24|uint32(len(header)), header)
}

func TestReadCommand_StreamOfFrames(t *testing.T) {
	var stream bytes.Buffer
	want := []*Command{
		routeRequest(SerializeJSON),
		{Code: RegisterBroker, Language: "JAVA", Opaque: 7, Flag: FlagOneway, Body: []byte("body"), SerializeType: SerializeRocketMQ},
		{Code: Success, Language: "GO", Opaque: -5, Flag: FlagResponse, Remark: "ok", ExtFields: map[string]string{}},
	}
	for _, c := range want {
		if err := WriteCommand(&stream, c); err != nil {
			t.Fatalf("WriteCommand: %v", err)
		}
	}
	r := bufio.NewReader(&stream)
	for i, w := range want {
		got, err := ReadCommand(r)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("frame %d = %+v, want %+v", i, got, w)
		}
	}
	if _, err := ReadCommand(r); err != io.EOF {
		t.Fatalf("after last frame err = %v, want io.EOF", err)
	}
}

func TestReadCommand_LargeHeaderAndBody(t *testing.T) {
	c := &Command{Code: Success, Language: "JAVA", Flag: FlagResponse,
		Remark: strings.Repeat("r", 20000),                 // larger than the read buffer
		Body:   bytes.Repeat([]byte{0xAB}, 3*bodyChunk+17)} // grows past several chunks
	frame, err := EncodeFrame(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadCommand(bufio.NewReaderSize(bytes.NewReader(frame), 4096))
	if err != nil {
		t.Fatal(err)
	}
	if got.Remark != c.Remark || !bytes.Equal(got.Body, c.Body) {
		t.Fatalf("remark %d bytes, body %d bytes; want %d and %d", len(got.Remark), len(got.Body), len(c.Remark), len(c.Body))
	}
}

func TestEncodeFrame_Errors(t *testing.T) {
	tests := []struct {
		name    string
		c       *Command
		wantErr error
	}{
		{"body over frame limit", &Command{Body: make([]byte, MaxFrameLength)}, ErrFrameTooLarge},
		{"header over limit", &Command{Remark: strings.Repeat("x", MaxHeaderLength)}, ErrHeaderTooLarge},
		{"escaping pushes header over limit", &Command{Remark: strings.Repeat("\x01", MaxHeaderLength/6+1)}, ErrHeaderTooLarge},
		{"unknown serialize type", &Command{SerializeType: 7}, ErrUnknownSerializeType},
		{"json response code over int16", &Command{Code: 40000, Flag: FlagResponse}, ErrCodeRange},
		{"binary code over int16", &Command{Code: -40000, SerializeType: SerializeRocketMQ}, ErrCodeRange},
		{"binary version over int16", &Command{Version: 70000, SerializeType: SerializeRocketMQ}, ErrVersionRange},
		{"binary unknown language", &Command{Language: "COBOL", SerializeType: SerializeRocketMQ}, ErrUnknownLanguage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := []byte("keep")
			out, err := AppendFrame(dst, tt.c)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("AppendFrame error = %v, want %v", err, tt.wantErr)
			}
			if string(out) != "keep" {
				t.Fatalf("AppendFrame changed dst on error: %q", out)
			}
			var w bytes.Buffer
			if err := WriteCommand(&w, tt.c); !errors.Is(err, tt.wantErr) || w.Len() != 0 {
				t.Fatalf("WriteCommand error = %v after %d bytes, want %v and nothing written", err, w.Len(), tt.wantErr)
			}
		})
	}
}

func TestEncodeFrame_JSONRequestCodeMayExceedInt16(t *testing.T) {
	// Only responses are read into an int16 (GO); Java request codes are ints.
	frame, err := EncodeFrame(&Command{Code: 40000})
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeFrame(frame[4:])
	if err != nil || got.Code != 40000 {
		t.Fatalf("decode = %+v, %v; want code 40000", got, err)
	}
}

func TestEncodeFrame_HeaderLengthWord(t *testing.T) {
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		frame, err := EncodeFrame(&Command{Code: 1, Body: []byte("xyz"), SerializeType: st})
		if err != nil {
			t.Fatal(err)
		}
		l := binary.BigEndian.Uint32(frame)
		word := binary.BigEndian.Uint32(frame[4:])
		if int(l) != len(frame)-4 {
			t.Fatalf("%s: length %d, frame has %d bytes after it", st, l, len(frame)-4)
		}
		if SerializeType(word>>24) != st || int(word&0xFFFFFF) != len(frame)-8-3 {
			t.Fatalf("%s: header word %08x for %d-byte frame with 3-byte body", st, word, len(frame))
		}
	}
}
