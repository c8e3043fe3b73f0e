package fastjson

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// CompareJava orders strings as Java String.compareTo does, the order of
// fastjson's MapSortField: by UTF-16 code unit, which differs from Go's byte
// order for characters above U+FFFF against U+E000-U+FFFF. Ties between
// different invalid byte sequences fall back to byte order so that sorting
// stays deterministic.
func CompareJava(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] == b[j] && a[i] < utf8.RuneSelf {
			i++
			j++
			continue
		}
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				return cmpInt(int(ua), int(ub))
			}
			return cmpInt(int(ra), int(rb)) // same high surrogate: low surrogates order as runes
		}
		i += na
		j += nb
	}
	switch {
	case i < len(a):
		return 1
	case j < len(b):
		return -1
	}
	return strings.Compare(a, b)
}

func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SortedKeys returns the keys of m in Java String.compareTo order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareJava)
	return keys
}
