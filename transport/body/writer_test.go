package body

import (
	"fmt"
	"slices"
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

func TestAppendNumberKey_Modes(t *testing.T) {
	cases := []struct {
		name     string
		key      int64
		def, std string
	}{
		{"zero", 0, `0:`, `"0":`},
		{"positive", 12, `12:`, `"12":`},
		{"negative", -1, `-1:`, `"-1":`},
	}
	for _, tc := range cases {
		if got := string(AppendNumberKey(nil, tc.key, Default)); got != tc.def {
			t.Errorf("%s Default: got %s, want %s", tc.name, got, tc.def)
		}
		if got := string(AppendNumberKey(nil, tc.key, Standard)); got != tc.std {
			t.Errorf("%s Standard: got %s, want %s", tc.name, got, tc.std)
		}
	}
}

func TestAppendLong_BrowserCompatibleQuoting(t *testing.T) {
	cases := []struct {
		v        int64
		def, std string
	}{
		{1<<53 - 1, "9007199254740991", "9007199254740991"},
		{1 << 53, "9007199254740992", `"9007199254740992"`},
		{-(1<<53 - 1), "-9007199254740991", "-9007199254740991"},
		{-(1 << 53), "-9007199254740992", `"-9007199254740992"`},
		{0, "0", "0"},
	}
	for _, tc := range cases {
		if got := string(AppendLong(nil, tc.v, Default)); got != tc.def {
			t.Errorf("%d Default: got %s, want %s", tc.v, got, tc.def)
		}
		if got := string(AppendLong(nil, tc.v, Standard)); got != tc.std {
			t.Errorf("%d Standard: got %s, want %s", tc.v, got, tc.std)
		}
	}
}

func TestCompareJava_UTF16Order(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want int
	}{
		{"equal", "abc", "abc", 0},
		{"prefix first", "ab", "abc", -1},
		{"empty first", "", "a", -1},
		{"ascii", "broker-b", "broker-a", 1},
		{"digits as text", "10", "2", -1},
		// U+1F600 is D83D DE00 in UTF-16, so it sorts before U+FFFF and
		// U+E000, unlike in UTF-8 byte order.
		{"astral before BMP private use", "😀", "\ue000", -1},
		{"BMP top after astral", "\uffff", "😀", 1},
		{"two astral", "😀", "😁", -1},
		{"invalid bytes break ties", "\xff", "\xfe", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := compareJava(tc.a, tc.b); got != tc.want {
				t.Errorf("compareJava(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestSortedKeys_JavaOrder(t *testing.T) {
	m := map[string]int{"\uffff": 1, "😀": 2, "b": 3, "a": 4, "A": 5}
	got := sortedKeys(m)
	want := []string{"A", "a", "b", "😀", "\uffff"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestMode_String(t *testing.T) {
	if Default.String() != "Default" || Standard.String() != "Standard" {
		t.Fatalf("got %s and %s", Default, Standard)
	}
}
