package fastjson

import (
	"fmt"
	"testing"
)

// controlEscape is the expected escape of an ASCII control character in
// both modes: the short forms, else \u00XX with uppercase hex.
func controlEscape(c byte) string {
	switch c {
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	return fmt.Sprintf(`\u%04X`, c)
}

func TestAppendString_EveryControlChar(t *testing.T) {
	for c := byte(0); c < 0x20; c++ {
		for _, m := range []Mode{Default, Standard} {
			got := string(AppendString(nil, "a"+string(c)+"b", m))
			want := `"a` + controlEscape(c) + `b"`
			if got != want {
				t.Errorf("%v %#02x: got %s, want %s", m, c, got, want)
			}
		}
	}
}

func TestAppendString_C1Controls(t *testing.T) {
	for r := rune(0x80); r <= 0x9F; r++ {
		want := fmt.Sprintf(`"\u%04X"`, r)
		for _, m := range []Mode{Default, Standard} {
			if got := string(AppendString(nil, string(r), m)); got != want {
				t.Errorf("%v U+%04X: got %s, want %s", m, r, got, want)
			}
		}
	}
}

func TestAppendString_Escaping(t *testing.T) {
	cases := []struct {
		name, in, def, std string
	}{
		{"plain ascii", "TopicTest", `"TopicTest"`, `"TopicTest"`},
		{"empty", "", `""`, `""`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`, `"a\"b\\c"`},
		{"slash", "a/b", `"a/b"`, `"a\/b"`},
		{"DEL", "a\x7fb", `"a\u007Fb"`, `"a\u007Fb"`},
		{"NBSP raw in default", "a\u00a0b", "\"a\u00a0b\"", `"a\u00A0b"`},
		{"latin letter", "é", `"é"`, `"\u00E9"`},
		{"line separator", "a\u2028b", `"a\u2028b"`, `"a\u2028b"`},
		{"paragraph separator", "a\u2029b", `"a\u2029b"`, `"a\u2029b"`},
		{"CJK", "主题", `"主题"`, `"\u4E3B\u9898"`},
		{"BMP top", "\uffff", "\"\uffff\"", `"\uFFFF"`},
		{"astral as surrogate pair", "😀", `"😀"`, `"\uD83D\uDE00"`},
		{"invalid UTF-8 byte", "a\xffb", "\"a\uFFFDb\"", `"a\uFFFDb"`},
		{"truncated sequence", "a\xc3", "\"a\uFFFD\"", `"a\uFFFD"`},
		{"order conf fragment", "broker-a:4;broker-é/b:2", `"broker-a:4;broker-é/b:2"`, `"broker-a:4;broker-\u00E9\/b:2"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(AppendString(nil, tc.in, Default)); got != tc.def {
				t.Errorf("Default: got %s, want %s", got, tc.def)
			}
			if got := string(AppendString(nil, tc.in, Standard)); got != tc.std {
				t.Errorf("Standard: got %s, want %s", got, tc.std)
			}
		})
	}
}

func TestAppendString_AppendsToPrefix(t *testing.T) {
	got := string(AppendString([]byte("x:"), "é/", Standard))
	if want := `x:"\u00E9\/"`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestMode_String(t *testing.T) {
	if Default.String() != "Default" || Standard.String() != "Standard" {
		t.Fatalf("got %s and %s", Default, Standard)
	}
}
