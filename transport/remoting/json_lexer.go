package remoting

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// jsonKind is the kind of a JSON value read by jsonLexer.
type jsonKind uint8

const (
	kindString jsonKind = iota
	kindNumber          // any bare token other than true, false and null
	kindTrue
	kindFalse
	kindNull
	kindComposite // an object or array, returned as its raw text
)

// jsonLexer reads one JSON header with the leniency of fastjson's default
// parser features (protocol doc §4.5): unquoted keys, single-quoted strings,
// repeated or trailing commas, and fastjson's extra escapes (\x, \v, octal
// digits). It never panics: every read is bounds-checked.
type jsonLexer struct {
	b   []byte
	pos int
	// scratch holds the unescaped text of the last string that had escapes.
	scratch []byte
}

func (l *jsonLexer) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: json at offset %d: %s", ErrBadHeader, l.pos, fmt.Sprintf(format, args...))
}

func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\b'
}

// isBareByte reports whether c may appear in an unquoted key or a bare value
// token (numbers, true, false, null, identifiers).
func isBareByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '$' || c == '-' || c == '+' || c == '.' || c >= utf8.RuneSelf
}

func (l *jsonLexer) skipSpace() {
	for l.pos < len(l.b) && isJSONSpace(l.b[l.pos]) {
		l.pos++
	}
}

// atEnd reports whether only whitespace is left.
func (l *jsonLexer) atEnd() bool {
	l.skipSpace()
	return l.pos >= len(l.b)
}

// readObject reads an object and calls fn for each member with the lexer
// positioned at the member's value; fn must consume that value. The key may
// alias the input or the scratch buffer and is valid only until fn reads.
func (l *jsonLexer) readObject(fn func(key []byte) error) error {
	l.skipSpace()
	if l.pos >= len(l.b) || l.b[l.pos] != '{' {
		return l.errorf("expected '{'")
	}
	l.pos++
	for {
		l.skipSpace()
		if l.pos >= len(l.b) {
			return l.errorf("unterminated object")
		}
		switch l.b[l.pos] {
		case ',': // fastjson AllowArbitraryCommas
			l.pos++
			continue
		case '}':
			l.pos++
			return nil
		}
		key, err := l.readKey()
		if err != nil {
			return err
		}
		l.skipSpace()
		if l.pos >= len(l.b) || l.b[l.pos] != ':' {
			return l.errorf("expected ':' after key")
		}
		l.pos++
		if err := fn(key); err != nil {
			return err
		}
		l.skipSpace()
		if l.pos >= len(l.b) {
			return l.errorf("unterminated object")
		}
		switch l.b[l.pos] {
		case ',':
			l.pos++
		case '}':
			l.pos++
			return nil
		default:
			return l.errorf("expected ',' or '}', found %q", l.b[l.pos])
		}
	}
}

// readKey reads a quoted or bare object key.
func (l *jsonLexer) readKey() ([]byte, error) {
	if c := l.b[l.pos]; c == '"' || c == '\'' {
		return l.readString(c)
	}
	tok := l.readBare()
	if len(tok) == 0 {
		return nil, l.errorf("expected key, found %q", l.b[l.pos])
	}
	return tok, nil
}

// readBare reads a run of bare-token bytes.
func (l *jsonLexer) readBare() []byte {
	start := l.pos
	for l.pos < len(l.b) && isBareByte(l.b[l.pos]) {
		l.pos++
	}
	return l.b[start:l.pos]
}

// readValue reads any value. Strings come back unescaped, bare tokens and
// composites as their raw text.
func (l *jsonLexer) readValue() ([]byte, jsonKind, error) {
	l.skipSpace()
	if l.pos >= len(l.b) {
		return nil, 0, l.errorf("expected value")
	}
	switch c := l.b[l.pos]; c {
	case '"', '\'':
		s, err := l.readString(c)
		return s, kindString, err
	case '{', '[':
		start := l.pos
		err := l.skipComposite()
		return l.b[start:l.pos], kindComposite, err
	}
	tok := l.readBare()
	switch string(tok) {
	case "":
		return nil, 0, l.errorf("unexpected %q", l.b[l.pos])
	case "null":
		return nil, kindNull, nil
	case "true":
		return tok, kindTrue, nil
	case "false":
		return tok, kindFalse, nil
	}
	return tok, kindNumber, nil
}

// skipComposite skips a bracketed value, strings included.
func (l *jsonLexer) skipComposite() error {
	depth := 0
	for l.pos < len(l.b) {
		switch c := l.b[l.pos]; c {
		case '"', '\'':
			if _, err := l.readString(c); err != nil {
				return err
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				l.pos++
				return nil
			}
		}
		l.pos++
	}
	return l.errorf("unterminated object or array")
}

// parseInt32 parses an optionally negative decimal integer that fits int32.
func parseInt32(b []byte) (int32, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	if v < -1<<31 || v > 1<<31-1 {
		return 0, false
	}
	return int32(v), true
}

// toValidString converts b to a string, replacing invalid UTF-8 with U+FFFD
// as Java's UTF-8 decoder does, so decoded strings always re-encode as valid
// JSON.
func toValidString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
