package fastjson

import "unicode/utf8"

// ValidString converts b to a string with every invalid byte replaced by
// U+FFFD, as Java's UTF-8 decoder and encoding/json do, so that what a
// Lexer read always writes back as valid JSON.
func ValidString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b)))
}
