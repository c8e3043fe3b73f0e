package fastjson

import (
	"slices"
	"testing"
)

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
			if got := CompareJava(tc.a, tc.b); got != tc.want {
				t.Errorf("CompareJava(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestSortedKeys_JavaOrder(t *testing.T) {
	m := map[string]int{"\uffff": 1, "😀": 2, "b": 3, "a": 4, "A": 5}
	got := SortedKeys(m)
	want := []string{"A", "a", "b", "😀", "\uffff"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
