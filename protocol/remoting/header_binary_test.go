package remoting

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"testing"
)

// binaryEntry encodes one ext entry.
func binaryEntry(k, v string) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(len(k)))
	b = append(b, k...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

func TestBinaryHeader_Decode(t *testing.T) {
	fixed := func(code uint16, lang byte, version uint16) []byte {
		b := binary.BigEndian.AppendUint16(nil, code)
		b = append(b, lang)
		b = binary.BigEndian.AppendUint16(b, version)
		return append(b, 0, 0, 0, 9, 0, 0, 0, 1) // opaque 9, flag 1
	}
	withTail := func(head []byte, remark string, ext []byte) []byte {
		b := binary.BigEndian.AppendUint32(head, uint32(len(remark)))
		b = append(b, remark...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(ext)))
		return append(b, ext...)
	}
	tests := []struct {
		name string
		in   []byte
		want Command
	}{
		{"empty remark and ext decode as absent", withTail(fixed(0, 0, 479), "", nil),
			Command{Language: "JAVA", Version: 479, Opaque: 9, Flag: 1}},
		{"remark and entries", withTail(fixed(17, 9, 317), "no route", append(binaryEntry("b", "2"), binaryEntry("a", "1")...)),
			Command{Code: 17, Language: "GO", Version: 317, Opaque: 9, Flag: 1, Remark: "no route",
				ExtFields: map[string]string{"a": "1", "b": "2"}}},
		{"empty key or value skipped", withTail(fixed(0, 0, 0), "", append(binaryEntry("", "x"), binaryEntry("k", "")...)),
			Command{Language: "JAVA", Opaque: 9, Flag: 1}},
		{"int16 code and version sign-extended", withTail(fixed(0xFFFF, 0, 0x8000), "", nil),
			Command{Code: -1, Language: "JAVA", Version: -32768, Opaque: 9, Flag: 1}},
		{"NODE_JS", withTail(fixed(0, 13, 0), "", nil), Command{Language: "NODE_JS", Opaque: 9, Flag: 1}},
		{"unknown language byte kept", withTail(fixed(0, 200, 0), "", nil), Command{Language: "UNKNOWN_200", Opaque: 9, Flag: 1}},
		{"bytes after ext ignored", append(withTail(fixed(0, 0, 0), "", nil), 1, 2, 3),
			Command{Language: "JAVA", Opaque: 9, Flag: 1}},
		{"invalid UTF-8 becomes U+FFFD", withTail(fixed(0, 0, 0), "a\xffb", binaryEntry("k", "\xfe")),
			Command{Language: "JAVA", Opaque: 9, Flag: 1, Remark: "a\uFFFDb", ExtFields: map[string]string{"k": "\uFFFD"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got Command
			if err := decodeBinaryHeader(tt.in, &got); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("decode = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestBinaryHeader_EncodeSortedAndSkipsEmpty(t *testing.T) {
	c := Command{Code: 0, Language: "GO", Version: 317, Opaque: 9, Flag: 1, Remark: "no",
		ExtFields: map[string]string{"b": "2", "a": "1", "": "x", "e": ""}}
	got, err := appendBinaryHeader(nil, &c)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0, 0, 9, 1, 0x3d, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 2, 'n', 'o'}
	ext := append(binaryEntry("a", "1"), binaryEntry("b", "2")...)
	want = binary.BigEndian.AppendUint32(want, uint32(len(ext)))
	want = append(want, ext...)
	if !bytes.Equal(got, want) {
		t.Fatalf("encode =\n%x\nwant\n%x", got, want)
	}
}

func TestBinaryHeader_LanguageRoundTrip(t *testing.T) {
	for code := 0; code < 256; code++ {
		name := LanguageName(byte(code))
		back, ok := LanguageCode(name)
		if !ok || int(back) != code {
			t.Fatalf("LanguageCode(LanguageName(%d) = %q) = %d, %v", code, name, back, ok)
		}
	}
	for _, name := range []string{"COBOL", "UNKNOWN_", "UNKNOWN_256", "UNKNOWN_x"} {
		if _, ok := LanguageCode(name); ok {
			t.Fatalf("LanguageCode(%q) accepted", name)
		}
		if _, err := appendBinaryHeader(nil, &Command{Language: name}); !errors.Is(err, ErrUnknownLanguage) {
			t.Fatalf("encode language %q: error = %v, want ErrUnknownLanguage", name, err)
		}
	}
}
