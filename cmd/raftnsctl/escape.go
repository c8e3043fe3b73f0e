package main

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// printable is how every table cell and every line of a stream shows text
// that came from a member or a name server (names, values, records): s
// itself when each of its runes is printable or a plain space, else s
// quoted with Go escapes (\x1b, \t, \u202e, …). A topic, key or value can
// then neither send a terminal control sequence, nor reorder or hide what
// follows, nor break a table's columns or lines.
func printable(s string) string {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return strconv.Quote(s)
			}
		}
		if r != ' ' && !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
